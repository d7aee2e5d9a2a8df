import { useState } from 'react'
import { cn } from '../../lib/cn'

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean)
  if (parts.length === 0) return '?'
  const first = parts[0]!.charAt(0)
  const last = parts.length > 1 ? parts[parts.length - 1]!.charAt(0) : ''
  return (first + last).toUpperCase()
}

/* Calm hues, chosen so white text on them is at least 4.5:1. */
const hues = ['#1d6ce5', '#0f7b6c', '#8e44ad', '#b3541e', '#2f6f3e', '#b0306a', '#4f5bd5', '#6b5b2e']

function hueFor(name: string): string {
  let h = 0
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) >>> 0
  return hues[h % hues.length]!
}

/**
 * A person's picture: `src` when given and it loads, else their initials on a calm colour (also while a
 * picture is missing or broken).
 */
export function Avatar({
  name,
  size = 32,
  className,
  src,
}: {
  name: string
  size?: number
  className?: string
  src?: string | null
}) {
  const [failed, setFailed] = useState<string | null>(null)
  if (src && failed !== src)
    return (
      <img
        src={src}
        alt=""
        aria-hidden
        loading="lazy"
        decoding="async"
        width={size}
        height={size}
        onError={() => setFailed(src)}
        className={cn('inline-block shrink-0 select-none rounded-full bg-surface-3 object-cover', className)}
        style={{ width: size, height: size }}
      />
    )
  return (
    <span
      aria-hidden
      className={cn(
        'inline-flex shrink-0 select-none items-center justify-center rounded-full font-semibold text-white',
        className,
      )}
      style={{ width: size, height: size, background: hueFor(name), fontSize: Math.round(size * 0.38) }}
    >
      {initials(name)}
    </span>
  )
}
