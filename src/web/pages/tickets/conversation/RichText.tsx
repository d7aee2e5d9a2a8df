import type { ReactNode } from 'react'

/*
 * WhatsApp's text formatting: *bold*, _italic_, ~strike~, ```monospace```, and links. The text is split into
 * React nodes (never HTML), so nothing a customer writes can inject markup.
 */
const TOKEN =
  /(```[\s\S]+?```)|((?<![\p{L}\p{N}*])\*(?=\S)[^*\n]*?\S?\*(?![\p{L}\p{N}*]))|((?<![\p{L}\p{N}_])_(?=\S)[^_\n]*?\S?_(?![\p{L}\p{N}_]))|((?<![\p{L}\p{N}~])~(?=\S)[^~\n]*?\S?~(?![\p{L}\p{N}~]))|(https?:\/\/[^\s<>"]+[^\s<>".,;:!?)\]'])/gu

function format(text: string, key: string): ReactNode[] {
  const out: ReactNode[] = []
  let last = 0
  let n = 0
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index ?? 0
    if (at > last) out.push(text.slice(last, at))
    const [whole, code, bold, italic, strike, url] = m
    const k = `${key}.${n++}`
    if (code)
      out.push(
        <code key={k} className="rounded bg-black/5 px-1 font-mono text-[13px] dark:bg-white/10">
          {code.slice(3, -3)}
        </code>,
      )
    else if (bold)
      out.push(
        <strong key={k} className="font-semibold">
          {format(bold.slice(1, -1), k)}
        </strong>,
      )
    else if (italic) out.push(<em key={k}>{format(italic.slice(1, -1), k)}</em>)
    else if (strike) out.push(<s key={k}>{format(strike.slice(1, -1), k)}</s>)
    else if (url)
      out.push(
        <a
          key={k}
          href={url}
          target="_blank"
          rel="noopener noreferrer"
          className="break-all text-link underline-offset-2 hover:underline"
        >
          {url}
        </a>,
      )
    else out.push(whole)
    last = at + whole.length
  }
  if (last < text.length) out.push(text.slice(last))
  return out
}

/** A message's text with WhatsApp's formatting; line breaks kept. */
export function RichText({ text, className }: { text: string; className?: string }) {
  return <span className={className ?? 'whitespace-pre-wrap break-words'}>{format(text, 'r')}</span>
}

/** The text without WhatsApp's formatting marks, for one-line previews (lists, notifications). */
export function plainText(text: string): string {
  return text.replace(TOKEN, (whole, code?: string, bold?: string, italic?: string, strike?: string) => {
    if (code) return code.slice(3, -3)
    const marked = bold ?? italic ?? strike
    return marked ? plainText(marked.slice(1, -1)) : whole
  })
}
