/**
 * The in-process RateLimiter (no --redis-url), on rate-limiter-flexible's memory store: counters live in
 * this process only, which is right for one instance and wrong for several (those need --redis-url).
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { AppError } from '../../kernel/errors.ts';
import { LIMIT_BUCKETS, type LimitBucket, type RateLimiter } from '../../kernel/limits.ts';
import type { Policies } from './policies.ts';

export type LimiterFactory = (bucket: LimitBucket, options: { points: number; duration: number; blockDuration: number; keyPrefix: string }) => RateLimiterAbstract;

export const memoryFactory: LimiterFactory = (_bucket, options) => new RateLimiterMemory(options);

/** Builds a RateLimiter over one limiter per enabled bucket, from any rate-limiter-flexible store. */
export function createRateLimiter(policies: Policies, factory: LimiterFactory, close: () => Promise<void> = async () => undefined): RateLimiter {
  const limiters = new Map<LimitBucket, RateLimiterAbstract>();
  for (const bucket of LIMIT_BUCKETS) {
    const policy = policies[bucket];
    if (policy.points <= 0) continue;
    limiters.set(bucket, factory(bucket, {
      points: policy.points,
      duration: policy.windowSeconds,
      blockDuration: policy.blockSeconds,
      keyPrefix: `portcullis:${bucket}`,
    }));
  }
  return {
    async consume(bucket, key, points = 1) {
      const limiter = limiters.get(bucket);
      if (!limiter) return;
      try {
        await limiter.consume(key, points);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw AppError.tooManyRequests(policies[bucket].message, err.msBeforeNext / 1000);
        throw err;
      }
    },
    async retryAfter(bucket, key) {
      const limiter = limiters.get(bucket);
      if (!limiter) return 0;
      const res = await limiter.get(key);
      if (!res || res.remainingPoints > 0) return 0;
      return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    },
    async reset(bucket, key) {
      await limiters.get(bucket)?.delete(key);
    },
    close,
  };
}
