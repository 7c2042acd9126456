/**
 * The hand-tallied request count and latency histogram (transports/http/request-series.ts) expose exactly
 * what prom-client's own Counter and Histogram expose for the same observations.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Histogram, Registry } from 'prom-client';
import { RequestSeries } from '../../server/transports/http/request-series.ts';

const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
const NAMES = {
  countName: 'portcullis_http_requests_total',
  countHelp: 'HTTP requests by route, method and status',
  latencyName: 'portcullis_http_request_duration_seconds',
  latencyHelp: 'HTTP request latency by route, method and status',
};

/** The exposition as a set of lines, each sample's labels sorted (label order carries no meaning). */
function samples(text: string): string[] {
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const match = /^([^{ ]+)(?:\{([^}]*)\})? (.+)$/.exec(line);
      if (!match || line.startsWith('#')) return line;
      const labels = (match[2] ?? '').split(',').filter(Boolean).sort().join(',');
      return `${match[1]}{${labels}} ${match[3]}`;
    })
    .sort();
}

const OBSERVATIONS: Array<[string, string, number, number]> = [
  ['/v1/validate_jwt_token', 'POST', 200, 0.0004],
  ['/v1/validate_jwt_token', 'POST', 200, 0.001],
  ['/v1/validate_jwt_token', 'POST', 200, 0.0011],
  ['/v1/validate_jwt_token', 'POST', 401, 0.003],
  ['/v1/login', 'POST', 200, 0.19],
  ['/v1/login', 'POST', 200, 7.5],
  ['unmatched', 'GET', 404, 0],
  ['/healthz', 'GET', 200, 5],
];

describe('RequestSeries', () => {
  test("exposes the same samples as prom-client's Counter and Histogram fed the same requests", async () => {
    const theirs = new Registry();
    const counter = new Counter({ name: NAMES.countName, help: NAMES.countHelp, labelNames: ['route', 'method', 'status'], registers: [theirs] });
    const histogram = new Histogram({ name: NAMES.latencyName, help: NAMES.latencyHelp, labelNames: ['route', 'method', 'status'], buckets: BUCKETS, registers: [theirs] });
    const ours = new Registry();
    const series = new RequestSeries(ours, { ...NAMES, buckets: BUCKETS });
    for (const [route, method, status, seconds] of OBSERVATIONS) {
      const labels = { route, method, status: String(status) };
      counter.inc(labels);
      histogram.observe(labels, seconds);
      series.observe(route, method, status, seconds);
    }
    const expected = samples(await theirs.metrics());
    assert.ok(expected.some((line) => line.includes('le="+Inf"')), 'the reference has buckets');
    assert.deepEqual(samples(await ours.metrics()), expected);
  });

  test('reset empties the series; the OpenMetrics format works too', async () => {
    const registry = new Registry();
    const series = new RequestSeries(registry, { ...NAMES, buckets: BUCKETS });
    series.observe('/v1/meta', 'GET', 200, 0.002);
    assert.match(await registry.metrics(), /portcullis_http_requests_total\{route="\/v1\/meta",method="GET",status="200"\} 1/);
    const openMetrics = new Registry<typeof Registry.OPENMETRICS_CONTENT_TYPE>();
    openMetrics.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);
    new RequestSeries(openMetrics, { ...NAMES, buckets: BUCKETS }).observe('/v1/meta', 'GET', 200, 0.002);
    const text = await openMetrics.metrics();
    assert.match(text, /portcullis_http_request_duration_seconds_bucket\{route="\/v1\/meta",method="GET",status="200",le="0.005"\} 1/);
    assert.match(text, /# EOF\n$/);
    registry.resetMetrics();
    assert.doesNotMatch(await registry.metrics(), /route="\/v1\/meta"/);
  });
});
