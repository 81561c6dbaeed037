import { createRoot } from 'react-dom/client'
import { useState } from 'react'
import {
  Feed,
  InboxClose,
  InboxContent,
  InboxFooter,
  InboxHeader,
  InboxInline,
  InboxPage,
  InboxRoot,
  InboxTrigger,
} from '../../../src'
import { markdownBody } from '../../../src/markdown'
import '../../../src/styles/index.css'
import { ServiceScope } from '../../../stories/support/ServiceScope'
import { threadedFixture } from '../../../stories/support/fixtures'

const scene = location.hash.slice(1)
const canvas = {
  padding: 20,
  background: '#f6f7fb',
  fontFamily: 'system-ui, sans-serif',
  minHeight: '100vh',
  boxSizing: 'border-box',
} as const

function Page() {
  const [selected, setSelected] = useState<string | null>(null)
  Object.assign(window, { __select: setSelected })
  return (
    <div style={{ height: 'calc(100vh - 40px)' }}>
      <InboxPage
        selectedId={selected}
        onSelect={setSelected}
        markSeenOnOpen={false}
        renderBody={markdownBody}
        groupBy="pr"
      />
    </div>
  )
}

const app =
  scene === 'parts' ? (
    <div style={{ display: 'flex', justifyContent: 'flex-end', paddingInline: 8 }}>
      <InboxRoot defaultOpen>
        <InboxTrigger asChild>
          <button
            type="button"
            style={{
              padding: '8px 14px',
              borderRadius: 8,
              border: '1px solid #c9cbd6',
              background: '#fff',
              font: 'inherit',
            }}
          >
            Inbox
          </button>
        </InboxTrigger>
        <InboxContent portal>
          <InboxHeader title="Updates">
            <InboxClose />
          </InboxHeader>
          <Feed markSeenOnView={false} style={{ flex: 1 }} renderBody={markdownBody} />
          <InboxFooter>
            <a href="#all">See all notifications</a>
          </InboxFooter>
        </InboxContent>
      </InboxRoot>
    </div>
  ) : scene === 'inline' ? (
    <div style={{ display: 'grid', gridTemplateColumns: '1fr 380px', gap: 20, height: 'calc(100vh - 40px)' }}>
      <main style={{ background: '#fff', borderRadius: 14, border: '1px solid #e7e7ec', padding: 24 }}>
        <h1 style={{ marginTop: 0, fontSize: 22 }}>Dashboard</h1>
        <p style={{ color: '#51515c' }}>The app's own content, with the inbox in its sidebar.</p>
      </main>
      <InboxInline markSeenOnOpen={false} renderBody={markdownBody} />
    </div>
  ) : scene === 'threads' ? (
    <div style={{ height: 'calc(100vh - 40px)' }}>
      <InboxInline markSeenOnOpen={false} groupBy="pr" renderBody={markdownBody} />
    </div>
  ) : (
    <Page />
  )

createRoot(document.getElementById('root')!).render(
  <div style={canvas}>
    <ServiceScope setup={{ fixture: threadedFixture }}>{app}</ServiceScope>
  </div>,
)
