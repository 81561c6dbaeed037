import { createRoot } from 'react-dom/client'
import { createService, demoFixture, DEMO_SUBSCRIBER_ID } from '../../../server'
import { Inbox } from '../../../src/components/Inbox/Inbox'
import '../../../src/styles/index.css'
import { ar } from '../../../src/locales/ar'

const params = new URLSearchParams(location.search)
const theme = (params.get('theme') ?? 'light') as 'light' | 'dark'
const locale = params.get('locale') ?? 'en'
const rtl = locale === 'ar'
if (theme === 'dark') document.body.dataset.dark = ''
document.documentElement.dir = rtl ? 'rtl' : 'ltr'

const service = createService({ fixture: demoFixture })
const serviceFetch = ((input: RequestInfo | URL, init?: RequestInit) =>
  service.fetch(new Request(new URL(String(input), 'http://inbox.test'), init))) as typeof fetch

function App() {
  return (
    <>
      <div className="bar">
        <div className="brand">
          <span className="logo" />
          Acme
        </div>
        <Inbox
          subscriberId={DEMO_SUBSCRIBER_ID}
          baseUrl="http://inbox.test"
          apiKey={service.apiKey}
          fetch={serviceFetch}
          theme={theme}
          messages={rtl ? ar : undefined}
          defaultOpen={params.get('open') !== '0'}
          pollInterval={0}
          countKind="unread"
        />
      </div>
      <div className="content">
        {Array.from({ length: 5 }, (_, i) => (
          <div key={i} className="card" />
        ))}
      </div>
    </>
  )
}

createRoot(document.getElementById('root')!).render(<App />)
