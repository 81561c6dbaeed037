import type { QueryClient } from '@tanstack/react-query'

/** State kept per QueryClient and subscriber, dropped with the QueryClient. */
export function perSubscriber<T>(create: () => T) {
  const byClient = new WeakMap<QueryClient, Map<string, T>>()
  return {
    get(queryClient: QueryClient, subscriberId: string): T {
      let bySubscriber = byClient.get(queryClient)
      if (!bySubscriber) {
        bySubscriber = new Map()
        byClient.set(queryClient, bySubscriber)
      }
      let value = bySubscriber.get(subscriberId)
      if (value === undefined) {
        value = create()
        bySubscriber.set(subscriberId, value)
      }
      return value
    },
    peek(queryClient: QueryClient, subscriberId: string): T | undefined {
      return byClient.get(queryClient)?.get(subscriberId)
    },
    drop(queryClient: QueryClient, subscriberId: string): void {
      byClient.get(queryClient)?.delete(subscriberId)
    },
  }
}
