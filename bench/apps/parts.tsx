import { createRoot } from 'react-dom/client'
import { Feed, InboxContent, InboxFooter, InboxHeader, InboxProvider, InboxRoot, InboxTrigger } from '../../src'
import '../../src/styles/index.css'

// A popover from parts: the app's own trigger, header and footer.
createRoot(document.getElementById('root')!).render(
  <InboxProvider subscriberId="demo-user" baseUrl="/api" apiKey="key">
    <InboxRoot>
      <InboxTrigger asChild>
        <button type="button">Inbox</button>
      </InboxTrigger>
      <InboxContent portal>
        <InboxHeader />
        <Feed />
        <InboxFooter>
          <a href="/notifications">See all</a>
        </InboxFooter>
      </InboxContent>
    </InboxRoot>
  </InboxProvider>,
)
