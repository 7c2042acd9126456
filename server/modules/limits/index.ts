export { policiesFor, IP_BURST_WINDOW_SECONDS, LOGIN_WINDOW_SECONDS, MAX_LOGIN_LOCKOUT_THRESHOLD, type BucketPolicy, type Policies } from './policies.ts';
export { createRateLimiter, memoryFactory, type LimiterFactory } from './memory-limiter.ts';
export { clientKey } from './client-key.ts';
