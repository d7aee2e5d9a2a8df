import { Skeleton } from './ui/Skeleton'

/** A form dialog's placeholder while its record loads: one bar per entry, each entry its size classes. */
export function FormSkeleton({ bars }: { bars: string[] }) {
  return (
    <div className="space-y-4" aria-busy>
      {bars.map((size, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
        <Skeleton key={i} className={size} />
      ))}
    </div>
  )
}
