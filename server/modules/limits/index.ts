export { policiesFor, type BucketPolicy, type Policies } from './policies.ts';
export { createRateLimiter, memoryFactory, type LimiterFactory } from './memory-limiter.ts';
