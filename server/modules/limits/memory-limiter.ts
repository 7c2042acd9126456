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
import { systemClock, type Clock } from '../../kernel/deps.ts';
import type { BucketPolicy, Policies } from './policies.ts';
import { tieredLimiter, type BucketLimiter } from './tiered-limiter.ts';

export interface LimiterOptions {
  points: number;
  duration: number;
  blockDuration: number;
  keyPrefix: string;
}

export type LimiterFactory = (bucket: LimitBucket, options: LimiterOptions) => RateLimiterAbstract;

export const memoryFactory: LimiterFactory = (_bucket, options) => new RateLimiterMemory(options);

/** A bucket of one window (with an optional burst allowance), timed by the store as rate-limiter-flexible does. */
function steadyLimiter(bucket: LimitBucket, policy: BucketPolicy, factory: LimiterFactory): BucketLimiter {
  const main = factory(bucket, {
    points: policy.points,
    duration: policy.windowSeconds,
    blockDuration: policy.blockSeconds,
    keyPrefix: `portcullis:${bucket}`,
  });
  const parts: RateLimiterAbstract[] = [main];
  let spend = (key: string, points: number): Promise<unknown> => main.consume(key, points);
  if (policy.burst && policy.burst.points > 0) {
    const extra = factory(bucket, {
      points: policy.burst.points,
      duration: policy.burst.windowSeconds,
      blockDuration: 0,
      keyPrefix: `portcullis:${bucket}:burst`,
    });
    parts.push(extra);
    // Spends the burst allowance only once the steady one is spent in the current window.
    const bursty = new BurstyRateLimiter(main, extra);
    spend = (key, points) => bursty.consume(key, points);
  }
  return {
    async consume(key, points) {
      try {
        await spend(key, points);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw limitRefusal(bucket, policy.message, err.msBeforeNext / 1000);
        throw err;
      }
    },
    async retryAfter(key) {
      // Reads report the steady allowance, the one a client must wait for once the burst is spent too.
      const res: LimiterResult | null = await main.get(key);
      if (!res || res.remainingPoints > 0) return 0;
      return Math.max(1, Math.ceil(res.msBeforeNext / 1000));
    },
    async reset(key) {
      for (const part of parts) await part.delete(key);
    },
    async refund(key, points) {
      await main.reward(key, points);
    },
    async counted(key) {
      return (await main.get(key))?.consumedPoints ?? 0;
    },
  };
}

function bucketLimiter(bucket: LimitBucket, policies: Policies, factory: LimiterFactory, clock: Clock): BucketLimiter | undefined {
  const policy = policies[bucket];
  if (policy.points <= 0) return undefined;
  return policy.escalation?.length ? tieredLimiter(bucket, policy, factory, clock) : steadyLimiter(bucket, policy, factory);
}

/**
 * Builds a RateLimiter over one limiter per enabled bucket, from any rate-limiter-flexible store. `clock`
 * times the buckets with escalation (tiered-limiter.ts); the others keep the store's own time.
 */
export function createRateLimiter(
  policies: Policies, factory: LimiterFactory, close: () => Promise<void> = async () => undefined, clock: Clock = systemClock,
): RateLimiter {
  const limiters = new Map<LimitBucket, BucketLimiter>();
  for (const bucket of LIMIT_BUCKETS) {
    const limiter = bucketLimiter(bucket, policies, factory, clock);
    if (limiter) limiters.set(bucket, limiter);
  }
  return {
    async consume(bucket, key, points = 1) {
      await limiters.get(bucket)?.consume(key, points);
    },
    async retryAfter(bucket, key) {
      return (await limiters.get(bucket)?.retryAfter(key)) ?? 0;
    },
    async reset(bucket, key) {
      await limiters.get(bucket)?.reset(key);
    },
    async refund(bucket, key, points = 1) {
      await limiters.get(bucket)?.refund(key, points);
    },
    async counted(bucket, key) {
      return (await limiters.get(bucket)?.counted(key)) ?? 0;
    },
    close,
  };
}
