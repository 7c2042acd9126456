/**
 * Types for the three rate-limiter-flexible modules memory-limiter.ts imports one by one; the package
 * declares its types only for its index, which loads every store it supports.
 */
declare module 'rate-limiter-flexible/lib/RateLimiterMemory.js' {
  const RateLimiterMemory: typeof import('rate-limiter-flexible').RateLimiterMemory;
  export default RateLimiterMemory;
}
declare module 'rate-limiter-flexible/lib/BurstyRateLimiter.js' {
  const BurstyRateLimiter: typeof import('rate-limiter-flexible').BurstyRateLimiter;
  export default BurstyRateLimiter;
}
declare module 'rate-limiter-flexible/lib/RateLimiterRes.js' {
  const RateLimiterRes: typeof import('rate-limiter-flexible').RateLimiterRes;
  export default RateLimiterRes;
}
