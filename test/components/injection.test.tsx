// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Feed } from '../../src/components/Feed/Feed'
import { plain } from '../../src/components/internal/text'
import { safeImageUrl, safeUrl } from '../../src/components/internal/url'
import { INJECTIONS, XSS_FLAG, isNonHttpUrl } from '../security/corpus'
import { buildFixture, TEST_SUBSCRIBER_ID } from '../support/fixtures'
import type { FixtureMessage } from '../support/fixtures'
import { renderWithInbox } from './setup'

const hostile = INJECTIONS.map((i) => i.value)

function corpusMessages(): FixtureMessage[] {
  return hostile.map((value, i) => ({
    subscriberId: TEST_SUBSCRIBER_ID,
    workflow: 'test-workflow',
    createdAt: new Date(Date.now() - i * 1000).toISOString(),
    subject: value,
    content: value,
    actor: { type: 'user', data: value },
    cta: { type: 'redirect', data: { url: value } },
    payload: { actorName: value },
  }))
}

describe('untrusted content', () => {
  it('renders the corpus in subject, content, avatar and CTA URL as inert text', async () => {
    const { container } = renderWithInbox(
      <Feed limit={100} initialRect={{ width: 400, height: 100_000 }} overscan={200} />,
      {
        fixture: buildFixture({ messages: corpusMessages() }),
      },
    )
    await waitFor(() => expect(screen.getAllByRole('article').length).toBe(hostile.length))
    const articles = screen.getAllByRole('article')
    for (const [i, article] of articles.entries()) {
      const value = hostile[i]!
      // Text nodes carry the exact string; nothing was parsed into elements.
      const title = article.querySelector('h3')!
      expect(title.querySelectorAll('*:not(a)')).toHaveLength(0)
      const body = article.querySelector('.inbox-item__body')
      if (body) expect(body.children).toHaveLength(0)
      // As written, less the direction marks that would make it read as something else, and the spaces around it.
      expect(title.textContent).toBe(plain(value).trim())
      expect(body?.textContent).toBe(plain(value).trim())
      expect(article.textContent).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
    }
    expect(
      container.querySelectorAll(
        'script, iframe, object, embed, svg [onload], [onerror], [onload], [onmouseover], [onfocus], base, meta, style, form, details, marquee, video, audio, math',
      ),
    ).toHaveLength(0)
    for (const a of container.querySelectorAll('a')) {
      const href = a.getAttribute('href') ?? ''
      expect(isNonHttpUrl(href)).toBe(false)
      expect(/^\s*javascript:/i.test(href)).toBe(false)
    }
    for (const img of container.querySelectorAll('img')) {
      const src = img.getAttribute('src') ?? ''
      expect(/^\s*(javascript|vbscript):/i.test(src)).toBe(false)
      expect(/^\s*data:(?!image\/)/i.test(src)).toBe(false)
    }
    expect((window as unknown as Record<string, unknown>)[XSS_FLAG]).toBeUndefined()
  })

  it('shows no direction mark that would reorder what an item says: a file name reads as it is', async () => {
    const spoof = 'invoice_\u202Efdp.exe'
    const { container } = renderWithInbox(<Feed />, {
      fixture: buildFixture({
        messages: [
          {
            subscriberId: TEST_SUBSCRIBER_ID,
            workflow: 'test-workflow',
            createdAt: new Date().toISOString(),
            subject: `Open ${spoof}`,
            content: `\u2067${spoof} left open, then the rest \u202Bof the text`,
            cta: { type: 'redirect', action: { buttons: [{ type: 'primary', content: `Get \u202D${spoof}` }] } },
          },
        ],
      }),
    })
    const article = await screen.findByRole('article')
    expect(article.querySelector('h3')!.textContent).toBe('Open invoice_fdp.exe')
    expect(article.querySelector('.inbox-item__body')!.textContent).toBe(
      'invoice_fdp.exe left open, then the rest of the text',
    )
    expect(screen.getByRole('button', { name: 'Get invoice_fdp.exe' })).toBeTruthy()
    expect(container.textContent).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
    // Letters of both directions stay as they are.
    expect(plain('שלום world مرحبا')).toBe('שלום world مرحبا')
  })

  it('cuts a text of a megabyte after 2,000 characters, which a browser lays out at once, not in minutes', async () => {
    // Letters without a space, the slowest for a browser to wrap; a pair of surrogates falls on the cut.
    const huge = 'A'.repeat(1999) + '😀'.repeat(250_000)
    const { container } = renderWithInbox(<Feed />, {
      fixture: buildFixture({
        messages: [
          {
            subscriberId: TEST_SUBSCRIBER_ID,
            workflow: 'test-workflow',
            createdAt: new Date().toISOString(),
            subject: huge,
            content: `\u202E${huge}`,
            cta: { type: 'redirect', action: { buttons: [{ type: 'primary', content: huge }] } },
          },
        ],
      }),
    })
    const article = await screen.findByRole('article')
    const cut = `${'A'.repeat(1999)}…`
    expect(article.querySelector('h3')!.textContent).toBe(cut)
    expect(article.querySelector('.inbox-item__body')!.textContent).toBe(cut)
    expect(article.querySelector('.inbox-item__actions button')!.textContent).toBe(cut)
    expect(container.textContent!.length).toBeLessThan(10_000)
    expect(plain('short')).toBe('short')
    expect(plain('B'.repeat(2000))).toBe('B'.repeat(2000))
  })

  it('never lets a javascript: URL through the link filter', () => {
    for (const value of hostile) {
      const url = safeUrl(value)
      if (url !== null) expect(isNonHttpUrl(url)).toBe(false)
    }
    expect(safeUrl('javascript:alert(1)')).toBeNull()
    expect(safeUrl('\tjava\nscript:alert(1)')).toBeNull()
    expect(safeUrl('data:text/html,<script>alert(1)</script>')).toBeNull()
    expect(safeUrl('/inbox?x=1#y')).toBe('/inbox?x=1#y')
    expect(safeUrl('https://example.com')).toBe('https://example.com')
    // A URL without a scheme stays on the page's origin; an image may come from anywhere.
    for (const offsite of [
      '//evil.example',
      ' //evil.example/a',
      '/\\evil.example',
      '\\\\evil.example',
      '\\/evil.example',
    ])
      expect(safeUrl(offsite), offsite).toBeNull()
    expect(safeUrl('../a//b')).toBe('../a//b')
    expect(safeImageUrl('//cdn.example/a.png')).toBe('//cdn.example/a.png')
  })
})
