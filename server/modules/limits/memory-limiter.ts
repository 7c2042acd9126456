/**
 * RateLimiter over rate-limiter-flexible, from any of its stores: memory here (no --redis-url: counters
 * live in this process only, right for one instance and wrong for several), Redis in redis-limiter.ts.
 */
import type { RateLimiterAbstract, RateLimiterRes as LimiterResult } from 'rate-limiter-flexible';
// One module each: the package's index requires every store it supports (Redis, Mongo, MySQL, Postgres,
// DynamoDB, etcd, node:cluster, ...), 36 modules evaluated at start for the three used here.
import BurstyRateLimiter from 'rate-limiter-flexible/lib/BurstyRateLimiter.js';
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import { LIMIT_BUCKETS, limitRefusal, type LimitBucket, type RateLimiter } from '../../kernel/limits.ts';
import type { Policies } from './policies.ts';

export interface LimiterOptions {
  points: number;
  duration: number;
  blockDuration: number;
  keyPrefix: string;
}

export type LimiterFactory = (bucket: LimitBucket, options: LimiterOptions) => RateLimiterAbstract;

export const memoryFactory: LimiterFactory = (_bucket, options) => new RateLimiterMemory(options);

interface BucketLimiter {
  consume(key: string, points: number): Promise<unknown>;
  get(key: string): Promise<LimiterResult | null>;
  parts: RateLimiterAbstract[];
}

function bucketLimiter(bucket: LimitBucket, policies: Policies, factory: LimiterFactory): BucketLimiter | undefined {
  const policy = policies[bucket];
  if (policy.points <= 0) return undefined;
  const main = factory(bucket, {
    points: policy.points,
    duration: policy.windowSeconds,
    blockDuration: policy.blockSeconds,
    keyPrefix: `portcullis:${bucket}`,
  });
  if (!policy.burst || policy.burst.points <= 0) return { consume: (k, p) => main.consume(k, p), get: (k) => main.get(k), parts: [main] };
  const extra = factory(bucket, {
    points: policy.burst.points,
    duration: policy.burst.windowSeconds,
    blockDuration: 0,
    keyPrefix: `portcullis:${bucket}:burst`,
  });
  // Spends the burst allowance only once the steady one is spent in the current window.
  const bursty = new BurstyRateLimiter(main, extra);
  // Reads report the steady allowance, the one a client must wait for once the burst is spent too.
  return { consume: (k, p) => bursty.consume(k, p), get: (k) => main.get(k), parts: [main, extra] };
}

/** Builds a RateLimiter over one limiter per enabled bucket, from any rate-limiter-flexible store. */
export function createRateLimiter(policies: Policies, factory: LimiterFactory, close: () => Promise<void> = async () => undefined): RateLimiter {
  const limiters = new Map<LimitBucket, BucketLimiter>();
  for (const bucket of LIMIT_BUCKETS) {
    const limiter = bucketLimiter(bucket, policies, factory);
    if (limiter) limiters.set(bucket, limiter);
  }
  return {
    async consume(bucket, key, points = 1) {
      const limiter = limiters.get(bucket);
      if (!limiter) return;
      try {
        await limiter.consume(key, points);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw limitRefusal(bucket, policies[bucket].message, err.msBeforeNext / 1000);
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
      for (const part of limiters.get(bucket)?.parts ?? []) await part.delete(key);
    },
    close,
  };
}
