import { defineModule } from '../manifest.ts';
import { RATE_LIMITED_METRIC } from './limits-metric.ts';

export {
  policiesFor, IP_BURST_WINDOW_SECONDS, LOGIN_WINDOW_SECONDS, MAX_LOGIN_LOCKOUT_THRESHOLD,
  ADMIN_SECRET_ADDRESS_TIERS, ADMIN_SECRET_TOTAL_TIERS, ADMIN_KNOWN_ADDRESS_SECONDS, ADMIN_SECRET_LIMIT_MESSAGE,
  type BucketPolicy, type LimitTier, type Policies,
} from './policies.ts';
export { createRateLimiter, memoryFactory, type LimiterFactory } from './memory-limiter.ts';
export { clientKey } from './client-key.ts';
export { RATE_LIMITED_METRIC } from './limits-metric.ts';

/**
 * limits holds neither entities nor operations: its manifest declares the metric the transports count when
 * a limit refuses a request. The limiter itself stays with buildApp, which must reach --redis-url before
 * storage opens (a startup refusal with nothing else opened yet), and which tests do not override.
 */
export const limitsModule = defineModule({ name: 'limits', metrics: [RATE_LIMITED_METRIC] });
