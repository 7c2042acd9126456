/**
 * What modules and transports count, as an interface in kernel/ (docs/architecture.md: modules never import
 * transports). transports/http/metrics.ts implements it with prom-client and serves it on the metrics
 * listener only (docs/api-overview.md#http-endpoints-outside-v1).
 *
 * Each metric is declared by the module that counts it, in its manifest (MetricDeclaration), and the
 * transport registers every declaration; the counting itself stays a typed method here, so a login or a
 * refused request pays one label lookup and no name lookup (docs/architecture.md#adding-a-module).
 */
import type { LimitBucket } from './limits.ts';

/**
 * One Prometheus metric a module counts: its exposition name, help text, type and label names
 * (Prometheus exposition format: counter or gauge). A gauge is read on each scrape from a probe its
 * module registers (Metrics.webhookBacklog); a counter only grows.
 */
export interface MetricDeclaration<L extends string = string> {
  readonly name: string;
  readonly help: string;
  readonly kind: 'counter' | 'gauge';
  readonly labels: readonly L[];
}

export function defineMetric<const L extends string>(declaration: MetricDeclaration<L>): MetricDeclaration<L> {
  return declaration;
}

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
