/**
 * Help videos (spec 3, "Help screen"): platform-wide YouTube videos the super users manage and every signed-in
 * user watches. A video is kept as its YouTube id; the same rule reads an id or a link on both sides.
 */

export const HELP_TITLE_MAX = 200
export const HELP_DESCRIPTION_MAX = 1000
/** Longer than any YouTube link someone would paste; a longer text is refused before it is parsed. */
export const HELP_VIDEO_INPUT_MAX = 500

export type HelpDto = {
  id: number
  title: string
  description: string
  /** The YouTube video id (11 characters). */
  video: string
  createdAt: string
  updatedAt: string
}

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/

/** Hosts that serve YouTube's own pages and players (youtu.be is handled apart). */
const YOUTUBE_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
])

/** Path forms whose next segment is the id: /embed/ID, /shorts/ID, /live/ID, /v/ID. */
const ID_SEGMENTS = new Set(['embed', 'shorts', 'live', 'v'])

export function isYouTubeVideoId(value: string): boolean {
  return VIDEO_ID.test(value)
}

/**
 * The YouTube video id in `input`: the id itself, or a link in one of the forms youtube.com/watch?v=ID,
 * youtu.be/ID, youtube.com/embed/ID, youtube.com/shorts/ID (http or https, with or without the scheme or
 * 'www.'). Anything else, including another site's link or a malformed id, is null.
 */
export function youtubeVideoId(input: string): string | null {
  const text = input.trim()
  if (!text || text.length > HELP_VIDEO_INPUT_MAX) return null
  if (VIDEO_ID.test(text)) return text
  let url: URL
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`)
  } catch {
    return null
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null
  if (url.username || url.password || url.port) return null
  const host = url.hostname.toLowerCase()
  const segments = url.pathname.split('/').filter(Boolean)
  let id: string | null | undefined
  if (host === 'youtu.be' || host === 'www.youtu.be') {
    id = segments.length === 1 ? segments[0] : null
  } else if (YOUTUBE_HOSTS.has(host)) {
    if (segments.length === 1 && segments[0] === 'watch') id = url.searchParams.get('v')
    else if (segments.length === 2 && ID_SEGMENTS.has(segments[0]!)) id = segments[1]
  }
  return id && VIDEO_ID.test(id) ? id : null
}

/** The card's thumbnail (YouTube's image host; allowed by the CSP's img-src). */
export function helpThumbnailUrl(videoId: string): string {
  return `https://i.ytimg.com/vi/${encodeURIComponent(videoId)}/hqdefault.jpg`
}

/** The player in the modal: the privacy-enhanced host (allowed by the CSP's frame-src), playing at once. */
export function helpEmbedUrl(videoId: string): string {
  return `https://www.youtube-nocookie.com/embed/${encodeURIComponent(videoId)}?autoplay=1`
}
