import { type } from 'arktype'
import { pageQuery } from './common'

/** Shortcodes are typed after '/' in the message input: no spaces, at most 50 characters. */
export const SHORTCODE_MAX = 50
/** A quick message's text: generous, but bounded (WhatsApp's own limit is about 65,000 characters). */
export const QUICK_MESSAGE_MAX = 10_000

export const shortcode = type('string.trim')
  .pipe((s) => s.replace(/^\/+/, ''))
  .to(`1 <= string <= ${SHORTCODE_MAX}`)
  .narrow((s, ctx) => !/\s/.test(s) || ctx.mustBe('a single word (no spaces)'))

/**
 * A quick message: shortcode required ('Obrigatório'; a leading '/' is dropped), its text, `geral` (company-wide;
 * otherwise personal to its owner) and `status` (active). The spec's `isMedia` and `mediaPath` are dropped like any
 * other unknown key: an attachment only ever arrives through the media upload, so no request can name a stored file.
 */
export const quickMessageBody = type({
  '+': 'delete',
  shortcode,
  'message?': `string <= ${QUICK_MESSAGE_MAX}`,
  'geral?': 'boolean',
  'status?': 'boolean',
})

export type QuickMessageInput = typeof quickMessageBody.infer

/** `GET /quick-messages`: search (shortcode or text) and page. */
export const listQuickMessagesQuery = pageQuery

export type ListQuickMessagesQuery = typeof listQuickMessagesQuery.infer
