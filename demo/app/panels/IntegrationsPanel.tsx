import { useId, useState } from 'react'
import { useActiveIntegrations, useSetPrimaryIntegration } from '../../../src/admin'
import type { Channel, Integration } from '../../../src/client'
import { useDemoStrings } from '../strings'
import { Badge, Panel, errorText } from './Panel'

/** Only these channels pick one provider per environment (spec §4.2). */
const PRIMARY_CHANNELS: readonly Channel[] = ['email', 'sms']

function groupIntegrations(list: Integration[]): [Channel, [string, Integration[]][]][] {
  const byChannel = new Map<Channel, Map<string, Integration[]>>()
  for (const integration of list) {
    const envs = byChannel.get(integration.channel) ?? new Map<string, Integration[]>()
    envs.set(integration._environmentId, [...(envs.get(integration._environmentId) ?? []), integration])
    byChannel.set(integration.channel, envs)
  }
  return [...byChannel].map(([channel, envs]) => [channel, [...envs]])
}

/** The active integrations by channel and environment; email and SMS ones can be made primary. */
export function IntegrationsPanel({ environments = {} }: { environments?: Record<string, string> }) {
  const t = useDemoStrings()
  const ids = useId()
  const { data, isLoading, error } = useActiveIntegrations()
  const { setPrimary, isPending } = useSetPrimaryIntegration()
  const [busyId, setBusyId] = useState<string | null>(null)
  const [actionError, setActionError] = useState<string | null>(null)

  async function makePrimary(id: string) {
    setBusyId(id)
    setActionError(null)
    try {
      await setPrimary(id)
    } catch (e) {
      setActionError(errorText(e))
    } finally {
      setBusyId(null)
    }
  }

  return (
    <Panel id="integrations" title={t.integrationsTitle} description={t.integrationsDescription}>
      {isLoading && <p className="demo-muted">{t.loadingIntegrations}</p>}
      {error && (
        <p role="alert" className="demo-field-error">
          {errorText(error)}
        </p>
      )}
      {actionError && (
        <p role="alert" className="demo-field-error">
          {actionError}
        </p>
      )}
      {data &&
        groupIntegrations(data).map(([channel, envs]) => (
          <div key={channel} className="demo-group">
            <h3>{t.channels[channel] ?? channel}</h3>
            {envs.map(([environmentId, list]) => {
              const envName = environments[environmentId] ?? environmentId
              return (
                <div key={environmentId} className="demo-subgroup">
                  <h4 id={`${ids}-${environmentId}`}>{envName}</h4>
                  <ul className="demo-list">
                    {list.map((integration) => {
                      const id = integration._id ?? integration.identifier
                      return (
                        <li key={id} className="demo-list-row">
                          <div className="demo-list-main">
                            <span className="demo-list-title" id={`${ids}-${id}-name`}>
                              {integration.name}
                            </span>
                            <span className="demo-muted">{integration.providerId}</span>
                          </div>
                          {integration.primary ? (
                            <Badge tone="accent">{t.primary}</Badge>
                          ) : PRIMARY_CHANNELS.includes(channel) && integration._id ? (
                            <button
                              type="button"
                              className="demo-button demo-button-small"
                              disabled={isPending}
                              id={`${ids}-${id}-make`}
                              // "Make primary Backup email Development": the visible text first, then what it acts on.
                              aria-labelledby={`${ids}-${id}-make ${ids}-${id}-name ${ids}-${environmentId}`}
                              onClick={() => makePrimary(integration._id!)}
                            >
                              {busyId === integration._id ? t.saving : t.makePrimary}
                            </button>
                          ) : null}
                        </li>
                      )
                    })}
                  </ul>
                </div>
              )
            })}
          </div>
        ))}
    </Panel>
  )
}
