/** The company's campaigns, paged and searched by name, live (`company-{id}-campaign`): the campaigns page. */
import type { CampaignDto, CampaignsPage } from '../../../shared/api'
import { api } from '../../api/client'
import { defineLiveList, liveEvent } from '../../state/liveList'

export type CampaignsParams = { search: string }

/** Whether a campaign belongs to a search (the server looks in the name). */
export function campaignMatches(c: CampaignDto, search: string): boolean {
  const term = search.trim().toLowerCase()
  return !term || c.name.toLowerCase().includes(term)
}

/** GET /api/campaigns/?searchParam=&pageNumber= (newest first: a live create goes to the top). */
export const campaignsList = defineLiveList<CampaignDto, CampaignsParams>({
  name: 'campaigns',
  id: (c) => c.id,
  fetchPage: async ({ search }, pageNumber, signal) => {
    const res = await api.get<CampaignsPage>('/campaigns/', {
      query: { searchParam: search || undefined, pageNumber },
      signal,
    })
    return { items: res.records ?? [], hasMore: !!res.hasMore, count: res.count ?? null }
  },
  matches: (c, { search }) => campaignMatches(c, search),
  paramsKey: ({ search }) => search.trim(),
  events: [
    liveEvent('campaign', (data, list) => {
      if (data.action === 'delete') list.remove(data.id)
      else if (data.record) list.upsert(data.record)
    }),
  ],
})
