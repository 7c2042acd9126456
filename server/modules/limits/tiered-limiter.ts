/**
 * A bucket with escalation (policies.ts BucketPolicy.escalation): several fixed windows, each with its own
 * allowance, all counted on every attempt. The windows are aligned on the app's clock rather than on the
 * store's: the window's start is part of the key, so a key of a past window is simply never read again and
 * the store's own expiry (the window's length, started at the first count) only reclaims it. A test clock
 * moved forward therefore opens the next window, and Retry-After is the time left in the window that refused.
 */
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import type { Clock } from '../../kernel/deps.ts';
import { limitRefusal, type LimitBucket } from '../../kernel/limits.ts';
import type { LimiterFactory } from './memory-limiter.ts';
import type { BucketPolicy, LimitTier } from './policies.ts';

export interface BucketLimiter {
  /** Counts `points`; throws the bucket's too_many_requests refusal once an allowance is spent. */
  consume(key: string, points: number): Promise<void>;
  retryAfter(key: string): Promise<number>;
  reset(key: string): Promise<void>;
  refund(key: string, points: number): Promise<void>;
  counted(key: string): Promise<number>;
}

interface Tier {
  windowMs: number;
  limiter: RateLimiterAbstract;
}

export function tieredLimiter(bucket: LimitBucket, policy: BucketPolicy, factory: LimiterFactory, clock: Clock): BucketLimiter {
  const specs: LimitTier[] = [{ points: policy.points, windowSeconds: policy.windowSeconds }, ...(policy.escalation ?? [])];
  const tiers: Tier[] = specs.map((spec) => ({
    windowMs: spec.windowSeconds * 1000,
    limiter: factory(bucket, { points: spec.points, duration: spec.windowSeconds, blockDuration: 0, keyPrefix: `portcullis:${bucket}:${spec.windowSeconds}s` }),
  }));
  const windowKey = (tier: Tier, key: string, now: number) => `${key}@${Math.floor(now / tier.windowMs)}`;
  const secondsLeft = (tier: Tier, now: number) => (tier.windowMs - (now % tier.windowMs)) / 1000;
  return {
    async consume(key, points) {
      const now = clock.now().getTime();
      const outcomes = await Promise.allSettled(tiers.map((tier) => tier.limiter.consume(windowKey(tier, key, now), points)));
      let wait = 0;
      outcomes.forEach((outcome, index) => {
        if (outcome.status === 'fulfilled') return;
        if (!(outcome.reason instanceof RateLimiterRes)) throw outcome.reason;
        wait = Math.max(wait, secondsLeft(tiers[index]!, now));
      });
      if (wait > 0) throw limitRefusal(bucket, policy.message, wait);
    },
    async retryAfter(key) {
      const now = clock.now().getTime();
      let wait = 0;
      for (const [index, tier] of tiers.entries()) {
        const res = await tier.limiter.get(windowKey(tier, key, now));
        if (res && res.remainingPoints <= 0) wait = Math.max(wait, Math.ceil(secondsLeft(tiers[index]!, now)));
      }
      return wait;
    },
    async reset(key) {
      const now = clock.now().getTime();
      for (const tier of tiers) await tier.limiter.delete(windowKey(tier, key, now));
    },
    async refund(key, points) {
      // Keys of the clock's current windows: a refund that crosses a window's end gives the point to the new
      // window instead, one extra attempt at most, and only after a success.
      const now = clock.now().getTime();
      await Promise.all(tiers.map((tier) => tier.limiter.reward(windowKey(tier, key, now), points)));
    },
    async counted(key) {
      const longest = tiers[tiers.length - 1]!;
      const res = await longest.limiter.get(windowKey(longest, key, clock.now().getTime()));
      return res?.consumedPoints ?? 0;
    },
  };
}
