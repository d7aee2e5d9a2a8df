/**
 * `/api/metrics` in Prometheus' text format, for those who scrape it: requests by method and status class, their
 * latency, live sockets, sessions by state and what waits to be sent. Off (404) unless `BALCAO_METRICS_TOKEN`
 * is set; then the scraper sends `Authorization: Bearer <token>`.
 */
import { timingSafeEqual } from 'node:crypto'
import type { Deps } from './context'

/** Seconds; the upper bounds of the latency histogram's buckets. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export class Metrics {
  readonly startedAt = Date.now()
  private readonly requests = new Map<string, number>()
  private readonly buckets = new Array<number>(BUCKETS.length).fill(0)
  private latencyCount = 0
  private latencySum = 0

  observe(method: string, status: number, seconds: number) {
    const key = `${method}|${Math.floor(status / 100)}xx`
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1)
    this.latencyCount += 1
    this.latencySum += seconds
    for (let i = 0; i < BUCKETS.length; i++)
      if (seconds <= (BUCKETS[i] ?? 0)) this.buckets[i] = (this.buckets[i] ?? 0) + 1
  }

  render(deps: Pick<Deps, 'sqlite' | 'hub' | 'version'>): string {
    const out: string[] = []
    const metric = (name: string, type: string, help: string, samples: [string, number][]) => {
      out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`)
      for (const [labels, value] of samples) out.push(`${name}${labels} ${value}`)
    }
    metric('balcao_build_info', 'gauge', 'The running version.', [[`{version="${deps.version}"}`, 1]])
    metric('balcao_uptime_seconds', 'gauge', 'Seconds since the process started.', [
      ['', Math.round((Date.now() - this.startedAt) / 1000)],
    ])
    metric(
      'balcao_http_requests_total',
      'counter',
      'API requests answered, by method and status class.',
      [...this.requests].map(([key, n]) => {
        const [method, status] = key.split('|')
        return [`{method="${method}",status="${status}"}`, n]
      }),
    )
    out.push(
      '# HELP balcao_http_request_duration_seconds Time to answer an API request.',
      '# TYPE balcao_http_request_duration_seconds histogram',
    )
    BUCKETS.forEach((le, i) => {
      out.push(`balcao_http_request_duration_seconds_bucket{le="${le}"} ${this.buckets[i] ?? 0}`)
    })
    out.push(
      `balcao_http_request_duration_seconds_bucket{le="+Inf"} ${this.latencyCount}`,
      `balcao_http_request_duration_seconds_sum ${this.latencySum.toFixed(6)}`,
      `balcao_http_request_duration_seconds_count ${this.latencyCount}`,
    )
    metric('balcao_live_sockets', 'gauge', 'Open live sockets (browsers and terminals).', [
      ['', deps.hub.size],
    ])
    const count = (sql: string) => deps.sqlite.query<{ n: number }, []>(sql).get()?.n ?? 0
    metric(
      'balcao_connections',
      'gauge',
      'WhatsApp connections by state.',
      deps.sqlite
        .query<{ status: string; n: number }, []>(
          'SELECT status, count(*) AS n FROM whatsapps GROUP BY status',
        )
        .all()
        .map(({ status, n }) => [`{status="${status}"}`, n]),
    )
    metric('balcao_outbound_messages', 'gauge', 'Messages waiting to be sent or being sent.', [
      ['{state="queued"}', count("SELECT count(*) AS n FROM messages WHERE send_state = 'queued'")],
      ['{state="sending"}', count("SELECT count(*) AS n FROM messages WHERE send_state = 'sending'")],
    ])
    metric('balcao_campaign_shippings_pending', 'gauge', 'Campaign messages not yet sent.', [
      ['', count("SELECT count(*) AS n FROM campaign_shippings WHERE state = 'pending'")],
    ])
    metric('balcao_scheduled_messages_pending', 'gauge', 'Scheduled messages not yet due or sent.', [
      ['', count("SELECT count(*) AS n FROM schedules WHERE status = 'PENDENTE'")],
    ])
    metric('balcao_process_resident_memory_bytes', 'gauge', 'Resident memory of the process.', [
      ['', process.memoryUsage().rss],
    ])
    return `${out.join('\n')}\n`
  }
}

const metricsByDeps = new WeakMap<object, Metrics>()

/** The metrics of one running app (one per deps, so tests do not share counts). */
export function metricsOf(deps: object): Metrics {
  const known = metricsByDeps.get(deps)
  if (known) return known
  const metrics = new Metrics()
  metricsByDeps.set(deps, metrics)
  return metrics
}

/** Whether the request carries the metrics token (compared in constant time). */
export function metricsAuthorized(token: string, header: string | undefined): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '')
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}
