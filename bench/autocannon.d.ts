/**
 * The part of autocannon 9's JavaScript API the benchmarks use (the package ships no typings). Shared by
 * every bench/ script that imports 'autocannon'; add fields here as a script needs them.
 */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string | Buffer;
    }
    interface Options {
      url: string;
      method?: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      amount?: number;
      pipelining?: number;
      /** Seconds before a request counts as a timeout. */
      timeout?: number;
      headers?: Record<string, string>;
      body?: string | Buffer;
      requests?: Request[];
      /** Leaves the result unaggregated, for autocannon.aggregateResult over several runs. */
      skipAggregateResult?: boolean;
    }
    /** Percentiles of a histogram: p50, p90, p97_5, p99, p99_9 and more, plus the summary figures. */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p97_5: number;
      p99: number;
      p99_9: number;
    }
    interface Result {
      url: string;
      /** Seconds the run took. */
      duration: number;
      /** Requests per second, sampled each second. */
      requests: Histogram;
      /** Milliseconds per response. */
      latency: Histogram;
      throughput: Histogram;
      /** Connection errors, timeouts included. */
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      '1xx': number;
      '2xx': number;
      '3xx': number;
      '4xx': number;
      '5xx': number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  namespace autocannon {
    /** Merges runs made with skipAggregateResult: counts add up, latency histograms merge (duration is the first run's). */
    function aggregateResult(results: Result[], options: Options): Result;
  }
  export = autocannon;
}
