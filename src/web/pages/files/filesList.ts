/** File lists as the web keeps them, live (`company-{id}-file`): the page's list (paged, searched by name). */
import type { Paged } from '../../../shared/api'
import type { FileListDto } from '../../../shared/files'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

export type FilesParams = { search: string }

/** The server's order: name (case-insensitive), then id. */
export function compareFiles(a: FileListDto, b: FileListDto): number {
  const x = a.name.toLowerCase()
  const y = b.name.toLowerCase()
  return x < y ? -1 : x > y ? 1 : a.id - b.id
}

export function fileMatches(record: FileListDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || record.name.toLowerCase().includes(term)
}

const applyEvent = liveEvent<FileListDto, 'file'>('file', (data, list) => {
  if (data.action === 'delete') list.remove(data.fileId)
  else if (data.fileList) list.upsert(data.fileList)
})

/** GET /api/files/?searchParam=&pageNumber= → `{ files, count, hasMore }`. */
export const filesList = defineLiveList<FileListDto, FilesParams>({
  name: 'files',
  id: (f) => f.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<Paged<'files', FileListDto>>('/files', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.files ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  sort: compareFiles,
  matches: (record, { search }) => fileMatches(record, search),
  paramsKey: ({ search }) => search.trim(),
  events: [applyEvent],
})
