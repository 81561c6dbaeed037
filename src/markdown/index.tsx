/**
 * inbox-kit/markdown: a safe Markdown subset for notification bodies, rendered to React elements — never to
 * an HTML string, so markup in the text stays text. Bold, italic, code, links (http(s) and relative only,
 * as the kit's own links), lists and line breaks; everything else is shown as written. As all text the kit
 * shows, it is cut after 2,000 characters.
 * @example <Inbox renderBody={markdownBody} />
 */
import type { ReactElement, ReactNode } from 'react'
import type { FeedItem } from '../api/types'
import { plain } from '../components/internal/text'
import { safeUrl } from '../components/internal/url'

// Spans stay within a line and 500 characters, so that no input makes the pattern slow. Within bold and
// italic, a code span is one piece (its `*` and `_` close nothing), and a backtick that opens none is a
// character; the two never both apply, so a failed match does not try every split.
const CODE = '`[^`\\n]{1,500}`'
const inner = (but: string) => `((?:${CODE}|\`(?![^\`\\n]{1,500}\`)|[^\`\\n${but}]){1,500}?)`
const SPAN = new RegExp(
  [
    '\\\\([\\\\`*_[\\]()#+.!-])',
    `\`([^\`\\n]{1,500})\``,
    `\\*\\*(?=\\S)${inner('')}(?<=\\S)\\*\\*`,
    `__(?=\\S)${inner('')}(?<=\\S)__(?![\\p{L}\\p{N}])`,
    `\\*(?=[^\\s*])${inner('*')}(?<=[^\\s*])\\*`,
    `(?<![\\p{L}\\p{N}])_(?=[^\\s_])${inner('_')}(?<=[^\\s_])_(?![\\p{L}\\p{N}])`,
    // A link's URL may hold balanced parentheses, one level deep: …/wiki/Foo_(bar).
    '\\[([^\\]\\n]{1,500})\\]\\(\\s*((?:[^()\\s]|\\([^()\\s]{0,500}\\)){1,2000})\\s*\\)',
  ].join('|'),
  'u',
)

const BULLET = /^ {0,3}[-*+][ \t]+(.*)$/
const NUMBERED = /^ {0,3}(\d{1,9})[.)][ \t]+(.*)$/

/** Inline Markdown of one paragraph or list item as React nodes; newlines become `<br>`. */
function spans(text: string): ReactNode[] {
  const out: ReactNode[] = []
  const plain = (s: string) =>
    s.split('\n').forEach((line, i) => {
      if (i) out.push(<br key={out.length} />)
      if (line) out.push(line)
    })
  for (let rest = text; rest;) {
    const m = SPAN.exec(rest)
    if (!m) {
      plain(rest)
      break
    }
    plain(rest.slice(0, m.index))
    const [whole, escaped, code, strong = m[4], , em = m[6], , label, url] = m
    const key = out.length
    if (escaped) out.push(escaped)
    else if (code) out.push(<code key={key}>{code}</code>)
    else if (strong) out.push(<strong key={key}>{spans(strong)}</strong>)
    else if (em) out.push(<em key={key}>{spans(em)}</em>)
    else {
      const href = safeUrl(url)
      out.push(
        href === null ? (
          <span key={key}>{spans(label!)}</span>
        ) : (
          <a key={key} href={href} rel="noopener noreferrer nofollow">
            {spans(label!)}
          </a>
        ),
      )
    }
    rest = rest.slice(m.index + whole.length)
  }
  return out
}

/**
 * Markdown to React nodes: paragraphs (split by blank lines), `-`/`*`/`+` and numbered lists, and within them
 * `**bold**`, `*italic*`, `` `code` ``, `[links](https://…)` and line breaks. Raw HTML is shown as text.
 * @example renderMarkdown('**Build failed** on `main`\n\n- [see the log](https://ci.example/1)')
 */
export function renderMarkdown(text: string): ReactNode[] {
  const blocks: ReactNode[] = []
  let para: string[] = []
  let list: { ordered: boolean; start: number; items: string[] } | null = null
  const flush = () => {
    const key = blocks.length
    if (para.length) blocks.push(<p key={key}>{spans(para.join('\n'))}</p>)
    else if (list) {
      const items = list.items.map((item, i) => <li key={i}>{spans(item)}</li>)
      blocks.push(
        list.ordered ? (
          <ol key={key} start={list.start === 1 ? undefined : list.start}>
            {items}
          </ol>
        ) : (
          <ul key={key}>{items}</ul>
        ),
      )
    }
    para = []
    list = null
  }
  for (const line of plain(text).replace(/\r\n?/g, '\n').split('\n')) {
    const bullet = BULLET.exec(line)
    const numbered = bullet ? null : NUMBERED.exec(line)
    if (!line.trim()) flush()
    else if (bullet || numbered) {
      const ordered = !!numbered
      if (para.length || (list && list.ordered !== ordered)) flush()
      list ??= { ordered, start: numbered ? Number(numbered[1]) : 1, items: [] }
      list.items.push(bullet ? bullet[1]! : numbered![2]!)
    } else if (list && /^\s/.test(line)) list.items[list.items.length - 1] += '\n' + line.trim()
    else {
      if (list) flush()
      para.push(line)
    }
  }
  flush()
  return blocks
}

/** Props of {@link Markdown}. */
export interface MarkdownProps {
  /** The Markdown text. */
  text: string
}

/**
 * Renders a safe Markdown subset; see {@link renderMarkdown}.
 * @example <Markdown text={item.content} />
 */
export function Markdown({ text }: MarkdownProps): ReactElement {
  return <>{renderMarkdown(text)}</>
}

/**
 * A `renderBody` that reads an item's body as Markdown.
 * @example <Inbox renderBody={markdownBody} />
 */
export function markdownBody<P extends object>(item: FeedItem<P>): ReactNode {
  return renderMarkdown(item.content)
}
