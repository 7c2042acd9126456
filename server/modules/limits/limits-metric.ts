/** What the abuse limits count (docs/limits.md#rate-limits): every request a limit refused, by route and bucket. */
import { defineMetric } from '../../kernel/metrics.ts';

/** Counted by the transports (HTTP and gRPC) when a limit refuses a request: Metrics.limited. */
export const RATE_LIMITED_METRIC = defineMetric({
  name: 'portcullis_rate_limited_total',
  help: 'Requests refused by a rate limit (HTTP 429, gRPC RESOURCE_EXHAUSTED) by route and limit bucket',
  kind: 'counter',
  labels: ['route', 'bucket'],
});
