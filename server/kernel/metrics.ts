/**
 * What modules and transports count, as an interface in kernel/ (docs/architecture.md: modules never import
 * transports). transports/http/metrics.ts implements it with prom-client and serves it on the metrics
 * listener only (docs/api-overview.md#http-endpoints-outside-v1).
 */
import type { LimitBucket } from './limits.ts';

export type LoginOutcome = 'success' | 'failure' | 'locked';
/** A webhook attempt's outcome: answered 2xx, failed and scheduled again, failed for good. */
export type WebhookOutcome = 'delivered' | 'retry' | 'failed';

/** What waits to be delivered, counted on scrape: events not fanned out yet, deliveries pending or in flight. */
export interface WebhookBacklog {
  events: number;
  deliveries: number;
}

export interface Metrics {
  /** A request refused by a limit: `route` is the HTTP route pattern or the gRPC method path. */
  limited(route: string, bucket: LimitBucket): void;
  /** A password login's outcome: right password, wrong password (or unknown account), refused by lockout. */
  login(outcome: LoginOutcome): void;
  /** One webhook attempt's outcome, by event name (docs/events.md). */
  webhookDelivery(event: string, outcome: WebhookOutcome): void;
  /** Registers how to count the webhook backlog; read on each scrape only. */
  webhookBacklog(probe: () => Promise<WebhookBacklog>): void;
}

/** For Deps built without a metrics registry (unit tests of a module). */
export const noMetrics: Metrics = {
  limited: () => undefined,
  login: () => undefined,
  webhookDelivery: () => undefined,
  webhookBacklog: () => undefined,
};
