/**
 * What modules and transports count, as an interface in kernel/ (architecture.md: modules never import
 * transports). transports/http/metrics.ts implements it with prom-client and serves it on the metrics
 * listener only (specification part 4.3).
 */
import type { LimitBucket } from './limits.ts';

export type LoginOutcome = 'success' | 'failure' | 'locked';

export interface Metrics {
  /** A request refused by a limit: `route` is the HTTP route pattern or the gRPC method path. */
  limited(route: string, bucket: LimitBucket): void;
  /** A password login's outcome: right password, wrong password (or unknown account), refused by lockout. */
  login(outcome: LoginOutcome): void;
}

/** For Deps built without a metrics registry (unit tests of a module). */
export const noMetrics: Metrics = { limited: () => undefined, login: () => undefined };
