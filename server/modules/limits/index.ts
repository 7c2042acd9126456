export {
  policiesFor, IP_BURST_WINDOW_SECONDS, LOGIN_WINDOW_SECONDS, MAX_LOGIN_LOCKOUT_THRESHOLD,
  ADMIN_SECRET_ADDRESS_TIERS, ADMIN_SECRET_TOTAL_TIERS, ADMIN_KNOWN_ADDRESS_SECONDS, ADMIN_SECRET_LIMIT_MESSAGE,
  type BucketPolicy, type LimitTier, type Policies,
} from './policies.ts';
export { createRateLimiter, memoryFactory, type LimiterFactory } from './memory-limiter.ts';
export { clientKey } from './client-key.ts';
