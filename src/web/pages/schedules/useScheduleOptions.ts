import { useEffect, useState } from 'react'
import type { QueueDto } from '../../../shared/api'
import { api } from '../../api/client'
import { connectionsList } from '../../state/connections'
import { useLiveList } from '../../state/liveList'
import { useUserOptions } from '../../state/options'

/** The schedule dialog's choices while it is open: connections (live), users and queues. */
export function useScheduleOptions(open: boolean) {
  const connections = useLiveList(connectionsList, undefined, { enabled: open })
  const users = useUserOptions(open)
  const [queues, setQueues] = useState<QueueDto[]>([])
  useEffect(() => {
    if (!open) return
    const ctrl = new AbortController()
    api
      .get<QueueDto[]>('/queue', { signal: ctrl.signal })
      .then((list) => setQueues(Array.isArray(list) ? list : []))
      .catch(() => {})
    return () => ctrl.abort()
  }, [open])
  return { connections: connections.items, users, queues }
}
