import { useId, useMemo, useState } from 'react'
import type { FormEvent } from 'react'
import { useBulkTrigger, useTrigger } from '../../../src/admin'
import type { JsonObject, Recipient, TriggerBody, TriggerResult } from '../../../src/client'
import type { Directory } from '../routes'
import { useDemoStrings } from '../strings'
import type { DemoStrings } from '../strings'
import { Badge, Panel, TopicSelect, errorText, useTopicChoice } from './Panel'

type Audience = 'me' | 'several' | 'topic'

interface SentBatch {
  id: number
  workflow: string
  to: string
  results: TriggerResult[]
}

const MAX_BULK = 100

/** Parses the payload editor's text: a JSON object, or the reason it is not one. */
function parsePayload(text: string, t: DemoStrings): { payload: JsonObject } | { error: string } {
  if (!text.trim()) return { payload: {} }
  try {
    const value: unknown = JSON.parse(text)
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: t.payloadNotObject }
    return { payload: value as JsonObject }
  } catch (error) {
    return { error: `${t.payloadInvalid} ${(error as Error).message}` }
  }
}

function statusTone(result: TriggerResult): 'ok' | 'warn' | 'error' {
  if (result.status === 'processed') return 'ok'
  return result.status === 'error' ? 'error' : 'warn'
}

/** Results of a bulk, one per status with how many had it. */
function tally(results: TriggerResult[]): [TriggerResult, number][] {
  const byStatus = new Map<string, [TriggerResult, number]>()
  for (const r of results) {
    const entry = byStatus.get(r.status)
    byStatus.set(r.status, entry ? [entry[0], entry[1] + 1] : [r, 1])
  }
  return [...byStatus.values()]
}

/** Sends a workflow to the signed-in subscriber, several subscribers, or a topic; once or as a bulk of N. */
export function SendPanel({ directory, subscriberId }: { directory: Directory | null; subscriberId: string }) {
  const ids = useId()
  const t = useDemoStrings()
  const workflows = useMemo(() => directory?.workflows ?? [], [directory])
  const [chosenId, setChosenId] = useState('')
  const [audience, setAudience] = useState<Audience>('me')
  const [several, setSeveral] = useState<string[]>([])
  const [topicKey, setTopicKey] = useTopicChoice(directory)
  // The user's own text; until they type, the sample payload of the workflow shown.
  const [typed, setTyped] = useState<string | null>(null)
  const [count, setCount] = useState(1)
  const [batches, setBatches] = useState<SentBatch[]>([])
  const [sendError, setSendError] = useState<string | null>(null)
  const { trigger, isPending: triggering } = useTrigger()
  const { bulkTrigger, isPending: bulkTriggering } = useBulkTrigger()

  // Until one is chosen, the first active workflow: derived, so that the directory arriving late (after the
  // user typed a payload) replaces nothing.
  const workflowId = chosenId || (workflows.find((w) => w.active) ?? workflows[0])?.identifier || ''
  const workflow = workflows.find((w) => w.identifier === workflowId)
  const payloadText = typed ?? (workflow ? JSON.stringify(workflow.samplePayload, null, 2) : '{}')

  const parsed = useMemo(() => parsePayload(payloadText, t), [payloadText, t])
  const payloadError = 'error' in parsed ? parsed.error : null
  const recipients: Recipient[] =
    audience === 'me'
      ? [subscriberId]
      : audience === 'several'
        ? several
        : topicKey
          ? [{ type: 'Topic', topicKey }]
          : []
  const countValid = Number.isInteger(count) && count >= 1 && count <= MAX_BULK
  const pending = triggering || bulkTriggering
  const canSend = !!workflow && !payloadError && recipients.length > 0 && countValid && !pending

  async function send(event: FormEvent) {
    event.preventDefault()
    if (!canSend || 'error' in parsed) return
    setSendError(null)
    const body: TriggerBody = { name: workflow.identifier, to: recipients, payload: parsed.payload }
    try {
      const results =
        count === 1 ? [await trigger(body)] : await bulkTrigger({ events: Array.from({ length: count }, () => body) })
      const to =
        audience === 'me'
          ? t.toYou
          : audience === 'topic'
            ? t.toTopicNamed(directory?.topics.find((x) => x.key === topicKey)?.name ?? topicKey)
            : t.toCount(several.length)
      setBatches((b) => [{ id: Date.now(), workflow: workflow.name, to, results }, ...b].slice(0, 5))
    } catch (error) {
      setSendError(errorText(error))
    }
  }

  return (
    <Panel id="send" title={t.sendTitle} description={t.sendDescription}>
      <form className="demo-form" onSubmit={send} noValidate>
        <label className="demo-field">
          <span>{t.workflow}</span>
          <select
            value={workflowId}
            onChange={(e) => {
              setChosenId(e.target.value)
              setTyped(null)
            }}
          >
            {workflows.map((w) => (
              <option key={w.identifier} value={w.identifier}>
                {w.name}
                {w.critical ? ` (${t.critical})` : ''}
                {w.active ? '' : ` (${t.inactive})`}
              </option>
            ))}
          </select>
          {workflow && <small className="demo-hint">{workflow.description || workflow.channels.join(', ')}</small>}
        </label>

        <fieldset className="demo-field">
          <legend>{t.recipients}</legend>
          <div className="demo-segmented">
            {(
              [
                ['me', t.toMe],
                ['several', t.toSeveral],
                ['topic', t.toTopic],
              ] as const
            ).map(([value, label]) => (
              <label key={value}>
                <input
                  type="radio"
                  name={`${ids}-audience`}
                  value={value}
                  checked={audience === value}
                  onChange={() => setAudience(value)}
                />
                <span>{label}</span>
              </label>
            ))}
          </div>
          {audience === 'several' && (
            <div className="demo-checklist">
              {directory?.subscribers.map((s) => (
                <label key={s.subscriberId}>
                  <input
                    type="checkbox"
                    checked={several.includes(s.subscriberId)}
                    onChange={(e) =>
                      setSeveral((list) =>
                        e.target.checked ? [...list, s.subscriberId] : list.filter((id) => id !== s.subscriberId),
                      )
                    }
                  />
                  <span>{s.name}</span>
                </label>
              ))}
            </div>
          )}
          {audience === 'topic' && <TopicSelect directory={directory} value={topicKey} onChange={setTopicKey} />}
        </fieldset>

        <label className="demo-field">
          <span>{t.payload}</span>
          <textarea
            className="demo-code"
            dir="ltr"
            rows={6}
            spellCheck={false}
            value={payloadText}
            aria-invalid={!!payloadError}
            aria-describedby={payloadError ? `${ids}-payload-error` : undefined}
            onChange={(e) => setTyped(e.target.value)}
          />
          {payloadError && (
            <small id={`${ids}-payload-error`} className="demo-field-error">
              {payloadError}
            </small>
          )}
        </label>

        <div className="demo-row">
          <label className="demo-field demo-field-inline">
            <span>{t.times}</span>
            <input
              type="number"
              min={1}
              max={MAX_BULK}
              value={Number.isNaN(count) ? '' : count}
              aria-invalid={!countValid}
              aria-describedby={countValid ? undefined : `${ids}-times-error`}
              onChange={(e) => setCount(e.target.valueAsNumber)}
            />
          </label>
          <button type="submit" className="demo-button demo-button-primary" disabled={!canSend}>
            {pending ? t.sending : countValid && count > 1 ? t.sendBulk(count) : t.send}
          </button>
        </div>
        {!countValid && (
          <small id={`${ids}-times-error`} className="demo-field-error">
            {t.timesInvalid(MAX_BULK)}
          </small>
        )}
        {sendError && (
          <p role="alert" className="demo-field-error">
            {sendError}
          </p>
        )}
      </form>

      <div aria-live="polite">
        {batches.length > 0 && (
          <ol className="demo-results" aria-label={t.results}>
            {batches.map((batch) => (
              <li key={batch.id}>
                <div className="demo-results-head">
                  <strong>{batch.workflow}</strong> → {batch.to}
                </div>
                <ul>
                  {batch.results.length <= 3
                    ? batch.results.map((result, i) => (
                        <li key={i}>
                          <Badge tone={statusTone(result)}>{result.status}</Badge>
                          <code title="transactionId">{result.transactionId ?? '—'}</code>
                          {result.error && <span className="demo-field-error">{result.error.join(', ')}</span>}
                        </li>
                      ))
                    : tally(batch.results).map(([result, n]) => (
                        <li key={result.status}>
                          <Badge tone={statusTone(result)}>{result.status}</Badge>
                          <span>× {n}</span>
                        </li>
                      ))}
                </ul>
              </li>
            ))}
          </ol>
        )}
      </div>
    </Panel>
  )
}
