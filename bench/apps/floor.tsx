import { QueryClient, useQuery } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { createStore, useStore } from 'zustand'

// The floor: what any React Query + zustand inbox costs before its own code — a bell with a count read from
// the service and its open state in a store. inbox-kit is measured against it.
const queryClient = new QueryClient()
const store = createStore(() => ({ open: false }))
const params = new URLSearchParams(location.search)

function Bell() {
  const open = useStore(store, (s) => s.open)
  const count = useQuery(
    {
      queryKey: ['count'],
      queryFn: () =>
        fetch(`/api/v1/subscribers/${params.get('subscriber') ?? 'demo-user'}/notifications/feed?read=false&limit=1`, {
          headers: { authorization: `ApiKey ${params.get('key') ?? ''}` },
        }).then((r) => r.json() as Promise<{ totalCount?: number }>),
    },
    queryClient,
  )
  return (
    <button type="button" className="floor-bell" aria-expanded={open} onClick={() => store.setState({ open: !open })}>
      Notifications <span data-count={count.data?.totalCount ?? 0}>{count.data?.totalCount ?? ''}</span>
    </button>
  )
}

createRoot(document.getElementById('root')!).render(<Bell />)
