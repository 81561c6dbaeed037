import express from 'express'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createMemoryBroker, createSubscriberToken, toNodeHandler } from '../../src/proxy'
import type { InboxEventsOptions, InboxProxyOptions } from '../../src/proxy'
import { APP, BASE_PATH, SECRET, startProxy } from '../proxy/harness'
import { WEBHOOK_SECRET, messagePayload, readStream, signedWebhook } from './sse'

const EVENTS = APP + BASE_PATH + '/events'
const HOOK = APP + BASE_PATH + '/webhooks/messages'

function setup(events: InboxEventsOptions = {}, authenticate?: InboxProxyOptions['authenticate']) {
  const started = startProxy({
    events: { webhookSecret: WEBHOOK_SECRET, ...events },
    ...(authenticate && { authenticate }),
  })
  const open = async (subscriberId: string | null, headers: Record<string, string> = {}) => {
    const all = new Headers(headers)
    if (subscriberId !== null) all.set('authorization', await started.bearer(subscriberId))
    return started.proxy(new Request(EVENTS, { headers: all }))
  }
  const stream = async (subscriberId: string, headers: Record<string, string> = {}) => {
    const response = await open(subscriberId, headers)
    expect(response.status).toBe(200)
    return readStream(response.body!)
  }
  return { ...started, open, stream }
}

describe('the event stream', () => {
  it('speaks the documented wire format: retry, ready with an id, then events with increasing ids and ids-only data', async () => {
    const { proxy, open } = setup({ retryMs: 1234 })
    const response = await open('user-1')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    expect(response.headers.get('cache-control')).toContain('no-transform')
    const reader = response.body!.getReader()
    const first = new TextDecoder().decode((await reader.read()).value)
    expect(first).toMatch(/^retry: 1234\n\nid: \d+-\d+\nevent: ready\ndata: \{"type":"ready"\}\n\n$/)
    const readyId = /id: (\S+)/.exec(first)![1]!

    await proxy.notify(['user-1'], { type: 'message.created', messageIds: ['m1', 'm2'] })
    await proxy.notify(['user-1'], { type: 'message.updated', messageIds: ['m1'] })
    await proxy.notify(['user-1'])
    const text =
      new TextDecoder().decode((await reader.read()).value) +
      new TextDecoder().decode((await reader.read()).value) +
      new TextDecoder().decode((await reader.read()).value)
    const blocks = text.split('\n\n').filter(Boolean)
    expect(blocks.map((b) => b.replace(/^id: \S+\n/, ''))).toEqual([
      'event: message.created\ndata: {"type":"message.created","messageIds":["m1","m2"]}',
      'event: message.updated\ndata: {"type":"message.updated","messageIds":["m1"]}',
      'event: message.created\ndata: {"type":"message.created","messageIds":[]}',
    ])
    const ids = [readyId, ...blocks.map((b) => /^id: (\S+)/.exec(b)![1]!)].map(
      (id) => id.split('-').map(Number) as [number, number],
    )
    for (let i = 1; i < ids.length; i++) {
      expect(ids[i]![0] > ids[i - 1]![0] || (ids[i]![0] === ids[i - 1]![0] && ids[i]![1] > ids[i - 1]![1])).toBe(true)
    }
    await reader.cancel()
  })

  it('needs the same sign-in as every route, and shows a subscriber only their own events', async () => {
    const { proxy, open, stream } = setup()
    expect((await open(null)).status).toBe(401)
    const one = await stream('user-1')
    const two = await stream('user-2')
    expect((await one.next())?.event).toBe('ready')
    expect((await two.next())?.event).toBe('ready')

    await proxy.notify(['user-1'], { type: 'message.created', messageIds: ['for-user-1'] })
    await proxy.notify(['user-2'], { type: 'message.created', messageIds: ['for-user-2'] })
    expect(JSON.parse((await one.next())!.data!)).toEqual({ type: 'message.created', messageIds: ['for-user-1'] })
    // user-2's first event is their own: user-1's came before it and never reached them.
    expect(JSON.parse((await two.next())!.data!)).toEqual({ type: 'message.created', messageIds: ['for-user-2'] })
    expect(one.pending()).toEqual([])
    await one.cancel()
    await two.cancel()
  })

  it('works with a cookie session as well as a Bearer token', async () => {
    const { proxy, service } = setup({}, (request) => (request.headers.get('cookie') === 'sid=s1' ? 'user-1' : null))
    expect((await proxy(new Request(EVENTS))).status).toBe(401)
    const response = await proxy(new Request(EVENTS, { headers: { cookie: 'sid=s1' } }))
    expect(response.status).toBe(200)
    const events = readStream(response.body!)
    expect((await events.next())?.event).toBe('ready')
    await proxy.notify(['user-1'], { type: 'message.updated', messageIds: [service.state.messages('user-1')[0]!._id] })
    expect((await events.next())?.event).toBe('message.updated')
    await events.cancel()
  })

  it('ends a stream when the token that opened it expires', async () => {
    const { proxy } = setup({ heartbeatMs: 100 })
    // Whole seconds from a clock half a second ahead: it expires between 0.5 and 1.5 s from now, never at once.
    const token = await createSubscriberToken('user-1', SECRET, { expiresIn: 1, now: () => Date.now() + 500 })
    const response = await proxy(new Request(EVENTS, { headers: { authorization: `Bearer ${token}` } }))
    expect(response.status).toBe(200)
    const events = readStream(response.body!)
    expect((await events.next())?.event).toBe('ready')
    const opened = Date.now()
    await events.ended
    // Heartbeats kept it alive until then; the token's expiry ended it (at most 1.5 s on, with room for a
    // busy machine: nothing else would end it).
    expect(events.comments.length).toBeGreaterThan(0)
    expect(Date.now() - opened).toBeLessThan(3_000)
    expect((await proxy(new Request(EVENTS, { headers: { authorization: `Bearer ${token}` } }))).status).toBe(401)
  })

  it('sends heartbeat comments at the configured interval', async () => {
    const { stream } = setup({ heartbeatMs: 40 })
    const events = await stream('user-1')
    await events.comment(3)
    expect(events.comments.slice(0, 3)).toEqual(['heartbeat', 'heartbeat', 'heartbeat'])
    expect(events.pending().map((e) => e.event)).toEqual(['ready'])
    await events.cancel()
  })

  it('resumes from Last-Event-ID with the events missed, and sends reset when the id is older than the buffer', async () => {
    const broker = createMemoryBroker({ bufferSize: 3 })
    const { proxy, stream } = setup({ broker })
    const first = await stream('user-1')
    const ready = (await first.next())!
    await first.cancel()

    await proxy.notify(['user-1'], { type: 'message.created', messageIds: ['a'] })
    await proxy.notify(['user-1'], { type: 'message.created', messageIds: ['b'] })
    const again = await stream('user-1', { 'last-event-id': ready.id! })
    const missed = [(await again.next())!, (await again.next())!]
    expect(missed.map((e) => JSON.parse(e.data!).messageIds[0])).toEqual(['a', 'b'])
    const live = (await again.next())!
    expect(live.event).toBe('ready')
    const [readyMs, readyN] = live.id!.split('-').map(Number) as [number, number]
    const [lastMs, lastN] = missed[1]!.id!.split('-').map(Number) as [number, number]
    expect(readyMs > lastMs || (readyMs === lastMs && readyN >= lastN)).toBe(true)
    await again.cancel()

    // Nothing new since the last id: just ready.
    const quiet = await stream('user-1', { 'last-event-id': live.id! })
    expect((await quiet.next())?.event).toBe('ready')
    await quiet.cancel()

    for (const id of ['c', 'd', 'e']) await proxy.notify(['user-1'], { type: 'message.created', messageIds: [id] })
    // Three more with a buffer of three: the event after `b` (c) is still there, so b resumes...
    const fromB = await stream('user-1', { 'last-event-id': missed[1]!.id! })
    expect(
      [(await fromB.next())!, (await fromB.next())!, (await fromB.next())!].map(
        (e) => JSON.parse(e.data!).messageIds[0],
      ),
    ).toEqual(['c', 'd', 'e'])
    await fromB.cancel()
    // ...but `a` was followed by b, which has been trimmed: reset.
    const fromA = await stream('user-1', { 'last-event-id': missed[0]!.id! })
    const reset = (await fromA.next())!
    expect(reset).toMatchObject({ event: 'reset', data: '{"type":"reset"}' })
    expect(fromA.pending()).toEqual([])
    await proxy.notify(['user-1'], { type: 'message.created', messageIds: ['f'] })
    expect(JSON.parse((await fromA.next())!.data!).messageIds).toEqual(['f'])
    await fromA.cancel()

    for (const bad of ['nonsense', '99999999999999-0', 'x'.repeat(200)]) {
      const s = await stream('user-1', { 'last-event-id': bad })
      expect((await s.next())?.event, bad).toBe('reset')
      await s.cancel()
    }
  })

  it('keeps at most maxStreamsPerSubscriber open per subscriber, closing the oldest', async () => {
    const { proxy, stream } = setup({ maxStreamsPerSubscriber: 2 })
    const a = await stream('user-1')
    const b = await stream('user-1')
    const other = await stream('user-2')
    const c = await stream('user-1')
    await a.ended
    expect(b.isDone() || c.isDone() || other.isDone()).toBe(false)
    await proxy.notify(['user-1'], { type: 'message.created', messageIds: ['x'] })
    expect((await b.next())?.event).toBe('ready')
    expect((await b.next())?.event).toBe('message.created')
    expect((await c.next())?.event).toBe('ready')
    expect((await c.next())?.event).toBe('message.created')
    proxy.closeStreams()
    await Promise.all([b.ended, c.ended, other.ended])
  })

  it('cuts off a client that stops reading instead of queueing its events without end', async () => {
    const { proxy, open } = setup({ maxQueuedBytes: 2_000 })
    const response = await open('user-1')
    const reader = response.body!.getReader()
    await reader.read()
    for (let i = 0; i < 40; i++)
      await proxy.notify(['user-1'], { type: 'message.created', messageIds: [`message-${i}`] })
    let bytes = 0
    // Errored rather than ended, so that a host waiting on the client drops the connection.
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          bytes += value.byteLength
        }
      })(),
    ).rejects.toThrow()
    // Cut off after about maxQueuedBytes, not after all forty events (~3,400 bytes).
    expect(bytes).toBeLessThan(2_400)
  })

  it('refuses bad notify arguments and a proxy without events', async () => {
    const { proxy } = setup()
    await expect(proxy.notify(['user-1'], { type: 'message.deleted' as never, messageIds: [] })).rejects.toThrow(
      TypeError,
    )
    await expect(proxy.notify(['user-1'], { type: 'message.created', messageIds: [1 as never] })).rejects.toThrow(
      /messageIds/,
    )
    await expect(proxy.notify([''], undefined)).rejects.toThrow(TypeError)
    const plain = startProxy()
    await expect(plain.proxy.notify(['user-1'])).rejects.toThrow(/events/)
    // The route says there is no stream (the kit then polls), without an error a browser would log.
    const none = await plain.call('user-1', '/events')
    expect(none.status).toBe(204)
    expect(await none.text()).toBe('')
    expect((await plain.call(null, '/events')).status).toBe(401)
  })
})

describe('the webhook route', () => {
  it('publishes a verified webhook to the subscriber’s streams and answers 204', async () => {
    const { proxy, stream } = setup()
    const events = await stream('user-1')
    await events.next()
    const response = await proxy(signedWebhook(HOOK, messagePayload('user-1', ['m1'])))
    expect(response.status).toBe(204)
    expect(JSON.parse((await events.next())!.data!)).toEqual({ type: 'message.created', messageIds: ['m1'] })
    await events.cancel()
  })

  it('answers 401 and publishes nothing for an unsigned, forged, stale, future or replayed webhook', async () => {
    const { proxy, stream } = setup()
    const events = await stream('user-1')
    await events.next()
    const payload = messagePayload('user-1', ['m1'])
    const unsigned = new Request(HOOK, {
      method: 'POST',
      body: JSON.stringify(payload),
      headers: { 'content-type': 'application/json' },
    })
    const spoiled = [
      unsigned,
      signedWebhook(HOOK, payload, {
        secret: 'whsec_' + Buffer.from('another secret of thirty-two bytes').toString('base64'),
      }),
      signedWebhook(HOOK, payload, { signature: 'v1,' + Buffer.from('x'.repeat(32)).toString('base64') }),
      signedWebhook(HOOK, payload, { timestamp: new Date(Date.now() - 6 * 60_000) }),
      signedWebhook(HOOK, payload, { timestamp: new Date(Date.now() + 6 * 60_000) }),
      signedWebhook(HOOK, payload, { id: 'x'.repeat(300) }),
    ]
    // The body changed after signing.
    const tampered = signedWebhook(HOOK, payload)
    spoiled.push(new Request(tampered, { body: JSON.stringify(messagePayload('user-1', ['other'])) }))
    for (const request of spoiled) {
      const response = await proxy(request)
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({
        statusCode: 401,
        error: 'Unauthorized',
        message: expect.stringMatching(/webhook/),
      })
    }

    const original = signedWebhook(HOOK, payload, { id: 'msg_once' })
    const replay = original.clone()
    expect((await proxy(original)).status).toBe(204)
    const replayed = await proxy(replay)
    expect(replayed.status).toBe(401)
    expect(((await replayed.json()) as { message: string }).message).toMatch(/already received/)
    // A fresh signature does not make an old id new.
    expect((await proxy(signedWebhook(HOOK, payload, { id: 'msg_once' }))).status).toBe(401)

    await proxy.notify(['user-1'], { type: 'message.updated', messageIds: ['marker'] })
    expect(JSON.parse((await events.next())!.data!).messageIds).toEqual(['m1'])
    // Only the one accepted webhook came through before the marker.
    expect(JSON.parse((await events.next())!.data!).messageIds).toEqual(['marker'])
    await events.cancel()
  })

  it('answers 422 naming the field for a signed payload that is not a message event, and 204 for other types', async () => {
    const { proxy } = setup()
    const bad = await proxy(
      signedWebhook(HOOK, { type: 'message.created', data: { subscriberId: '', messageIds: 'x' } }),
    )
    expect(bad.status).toBe(422)
    const body = (await bad.json()) as { errors: Record<string, unknown> }
    expect(Object.keys(body.errors).sort()).toEqual(['data.messageIds', 'data.subscriberId'])
    // Refused, so the same id may come again once fixed.
    expect((await proxy(signedWebhook(HOOK, { type: 'message.created' }, { id: 'msg_fixed' }))).status).toBe(422)
    expect((await proxy(signedWebhook(HOOK, messagePayload('user-1', ['m']), { id: 'msg_fixed' }))).status).toBe(204)
    expect((await proxy(signedWebhook(HOOK, { type: 'subscriber.created', data: {} }))).status).toBe(204)
    expect((await proxy(signedWebhook(HOOK, null, { body: '{not json' }))).status).toBe(400)
  })

  it('behind a body parser that read the body first, says so in its 401', async () => {
    const { proxy } = setup()
    const app = express()
    app.use(express.json())
    app.use(BASE_PATH, toNodeHandler(proxy))
    const server = app.listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE_PATH}/webhooks/messages`
      // Signed as the service sends it, spelled otherwise than JSON.stringify spells it again.
      const body = JSON.stringify(messagePayload('user-1', ['m1']), null, 2)
      const signed = signedWebhook(at, null, { body })
      const response = await fetch(at, { method: 'POST', headers: signed.headers, body })
      expect(response.status).toBe(401)
      expect(((await response.json()) as { message: string }).message).toMatch(
        /express\.json\(\).*before any body parser/,
      )
      // Read by the proxy itself (not parsed first), a bad signature says nothing of parsers.
      const forged = await proxy(signedWebhook(HOOK, null, { body, secret: 'whsec_' + btoa('x'.repeat(32)) }))
      expect(((await forged.json()) as { message: string }).message).not.toMatch(/parser/)
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('is not served without a webhook secret (a 404 naming it), and refuses a secret that is not one', async () => {
    for (const [options, named] of [
      [{ events: {} }, 'events.webhookSecret'],
      [{}, 'events'],
    ] as const) {
      const response = await startProxy(options).proxy(signedWebhook(HOOK, messagePayload('user-1', ['m1'])))
      expect(response.status).toBe(404)
      expect((await response.json()).message).toBe(`The webhook route is off: the proxy was created without ${named}.`)
    }
    expect(() => startProxy({ events: { webhookSecret: 'not base64!' } })).toThrow(/whsec_/)
    // Named but empty: an environment variable that is not set. Served, the stream would carry nothing of the
    // service's, and the browser would look for news once a minute, not every 10 s.
    for (const webhookSecret of [undefined, '', []])
      expect(() => startProxy({ events: { webhookSecret } })).toThrow(
        /^events\.webhookSecret is empty \(an environment variable that is not set\?\)/,
      )
  })
})
