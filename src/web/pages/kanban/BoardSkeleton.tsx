import { Skeleton } from '../../components/ui/Skeleton'

/** The board's shape while its lanes and tickets load: three lanes of three cards. */
export function BoardSkeleton() {
  return (
    <div aria-busy className="flex min-h-[420px] flex-1 gap-3 overflow-hidden">
      {[0, 1, 2].map((i) => (
        <div
          key={i}
          className="flex w-72 shrink-0 flex-col gap-2 rounded-card border border-border bg-surface-2/60 p-3"
        >
          <Skeleton className="h-4 w-1/2" />
          {[0, 1, 2].map((j) => (
            <div key={j} className="rounded-card border border-border bg-surface p-3">
              <Skeleton className="h-4 w-2/3" />
              <Skeleton className="mt-2 h-3 w-1/3" />
              <Skeleton className="mt-3 h-3 w-full" />
            </div>
          ))}
        </div>
      ))}
    </div>
  )
}
