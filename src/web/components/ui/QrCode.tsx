import QRCode from 'qrcode'
import { useMemo } from 'react'
import { cn } from '../../lib/cn'

/** The SVG path of a QR code's dark modules, one unit per module, offset by the quiet zone. */
export function qrPath(text: string, margin: number): { path: string; size: number } {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
  const n = modules.size
  let path = ''
  for (let row = 0; row < n; row++) {
    let start = -1
    for (let col = 0; col <= n; col++) {
      const dark = col < n && modules.get(row, col)
      if (dark && start < 0) start = col
      if (!dark && start >= 0) {
        path += `M${start + margin} ${row + margin}h${col - start}v1h${start - col}z`
        start = -1
      }
    }
  }
  return { path, size: n + margin * 2 }
}

/**
 * A QR code drawn as an SVG (no canvas, no inline script): crisp at any size, always dark on white with a
 * white quiet zone, in both themes, so phones can read it.
 */
export function QrCode({
  value,
  label,
  className,
  margin = 2,
}: {
  value: string
  /** Accessible name. */
  label: string
  className?: string
  margin?: number
}) {
  const qr = useMemo(() => {
    try {
      return qrPath(value, margin)
    } catch {
      return null
    }
  }, [value, margin])
  if (!qr) return null
  return (
    <svg
      role="img"
      aria-label={label}
      data-testid="qrcode"
      viewBox={`0 0 ${qr.size} ${qr.size}`}
      shapeRendering="crispEdges"
      className={cn('block rounded-md bg-white', className)}
    >
      <rect width={qr.size} height={qr.size} fill="#ffffff" />
      <path d={qr.path} fill="#000000" />
    </svg>
  )
}
