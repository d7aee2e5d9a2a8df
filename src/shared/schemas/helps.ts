import { type } from 'arktype'
import { HELP_DESCRIPTION_MAX, HELP_TITLE_MAX, HELP_VIDEO_INPUT_MAX, youtubeVideoId } from '../helps'
import { pageQuery, text } from './common'

/** A YouTube video id, or a YouTube link, stored as the id (src/shared/helps.ts reads it). */
export const helpVideo = type('string.trim')
  .to(`1 <= string <= ${HELP_VIDEO_INPUT_MAX}`)
  .narrow((s, ctx) => youtubeVideoId(s) !== null || ctx.mustBe('a YouTube video id or link'))
  .pipe((s) => youtubeVideoId(s) as string)

/** A help video: title required (at most 200), description optional (at most 1000), the video required. */
export const helpBody = type({
  '+': 'delete',
  title: text(1, HELP_TITLE_MAX),
  'description?': type('string.trim').to(`string <= ${HELP_DESCRIPTION_MAX}`),
  video: helpVideo,
})

export type HelpInput = typeof helpBody.infer

/** `GET /helps`: search (title or description) and page. */
export const listHelpsQuery = pageQuery

export type ListHelpsQuery = typeof listHelpsQuery.infer
