/**
 * The request count and latency histogram of the main listener, tallied by hand and exposed to prom-client's
 * registry as two metrics of its kinds (counter and histogram, the text format of the Prometheus exposition
 * format: cumulative `_bucket{le}` series, `+Inf`, `_sum` and `_count`).
 *
 * Why not prom-client's Counter and Histogram: every request of the server is counted here, and their
 * observe() converts, validates and hashes the label set on each call even through a labelled child (about
 * 2% of a token validation's CPU). Here a request is one lookup of its series (route pattern, method,
 * status: a small, bounded table, as routes are the registered patterns or 'unmatched') and a few additions;
 * the exposition work is done when /metrics is scraped.
 */
import type { Registry, RegistryContentType } from 'prom-client';

/** A series' labels: route pattern, method, status. */
interface SeriesLabels {
  readonly route: string;
  readonly method: string;
  readonly status: string;
}

interface Series {
  readonly labels: SeriesLabels;
  /** Observations per bucket (not cumulative): index i counts values <= bounds[i] and > bounds[i - 1]. */
  readonly perBucket: number[];
  sum: number;
  count: number;
}

interface MetricValue {
  readonly labels: Record<string, string | number>;
  readonly value: number;
  readonly metricName?: string;
}

/** What prom-client's Registry reads from a registered metric (the shape its own metrics' get() answers). */
interface ExposedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; values: MetricValue[]; aggregator: 'sum' }>;
  reset(): void;
}

export interface RequestSeriesOptions {
  readonly countName: string;
  readonly countHelp: string;
  readonly latencyName: string;
  readonly latencyHelp: string;
  /** Upper bounds of the latency buckets in seconds, ascending. */
  readonly buckets: readonly number[];
}

export class RequestSeries {
  readonly #bounds: readonly number[];
  readonly #byRoute = new Map<string, Map<string, Map<number, Series>>>();

  constructor(registry: Registry<RegistryContentType>, options: RequestSeriesOptions) {
    this.#bounds = [...options.buckets];
    registry.registerMetric(this.#exposed(options.countName, options.countHelp, 'counter', () => this.#countValues()) as never);
    registry.registerMetric(this.#exposed(options.latencyName, options.latencyHelp, 'histogram', () => this.#latencyValues(options.latencyName)) as never);
  }

  /** One answered request: its route pattern, method, status and latency in seconds. */
  observe(route: string, method: string, status: number, seconds: number): void {
    const series = this.#seriesOf(route, method, status);
    series.count += 1;
    series.sum += seconds;
    const bounds = this.#bounds;
    let bucket = 0;
    while (bucket < bounds.length && seconds > bounds[bucket]!) bucket += 1;
    if (bucket < bounds.length) series.perBucket[bucket]! += 1;
  }

  #seriesOf(route: string, method: string, status: number): Series {
    let byMethod = this.#byRoute.get(route);
    if (!byMethod) this.#byRoute.set(route, (byMethod = new Map()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map()));
    let series = byStatus.get(status);
    if (!series) {
      series = { labels: { route, method, status: String(status) }, perBucket: this.#bounds.map(() => 0), sum: 0, count: 0 };
      byStatus.set(status, series);
    }
    return series;
  }

  *#allSeries(): Iterable<Series> {
    for (const byMethod of this.#byRoute.values()) for (const byStatus of byMethod.values()) yield* byStatus.values();
  }

  #countValues(): MetricValue[] {
    return [...this.#allSeries()].map((series) => ({ labels: { ...series.labels }, value: series.count }));
  }

  #latencyValues(name: string): MetricValue[] {
    const values: MetricValue[] = [];
    for (const series of this.#allSeries()) {
      let cumulative = 0;
      this.#bounds.forEach((bound, index) => {
        cumulative += series.perBucket[index]!;
        values.push({ labels: { ...series.labels, le: bound }, value: cumulative, metricName: `${name}_bucket` });
      });
      values.push({ labels: { ...series.labels, le: '+Inf' }, value: series.count, metricName: `${name}_bucket` });
      values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${name}_sum` });
      values.push({ labels: { ...series.labels }, value: series.count, metricName: `${name}_count` });
    }
    return values;
  }

  #exposed(name: string, help: string, type: 'counter' | 'histogram', values: () => MetricValue[]): ExposedMetric {
    return {
      name,
      help,
      type,
      aggregator: 'sum',
      get: async () => ({ name, help, type, values: values(), aggregator: 'sum' }),
      reset: () => this.#byRoute.clear(),
    };
  }
}
