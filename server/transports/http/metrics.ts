/**
 * Prometheus metrics (prom-client): process metrics, request counts and latency by route and status
 * (request-series.ts), requests refused by a limit by route and bucket, and password logins by outcome (the
 * kernel Metrics interface modules count through). Served only by the dedicated metrics listener
 * (docs/api-overview.md#http-endpoints-outside-v1), never on the main port.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Registry, collectDefaultMetrics, Counter, Gauge } from 'prom-client';
import type { Metrics, WebhookBacklog } from '../../kernel/metrics.ts';
import { limitedBucket } from './errors.ts';
import { accessLogger, lazyRequestLogger } from './request-log.ts';
import { NO_ROUTE_SCHEMAS } from './no-route-schemas.ts';
import { RequestSeries } from './request-series.ts';

export interface HttpMetrics extends Metrics {
  readonly registry: Registry;
  observe(route: string, method: string, status: number, seconds: number): void;
}

export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestSeries(registry, {
    countName: 'portcullis_http_requests_total',
    countHelp: 'HTTP requests by route, method and status',
    latencyName: 'portcullis_http_request_duration_seconds',
    latencyHelp: 'HTTP request latency by route, method and status',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  const limited = new Counter({
    name: 'portcullis_rate_limited_total',
    help: 'Requests refused by a rate limit (HTTP 429, gRPC RESOURCE_EXHAUSTED) by route and limit bucket',
    labelNames: ['route', 'bucket'] as const,
    registers: [registry],
  });
  const logins = new Counter({
    name: 'portcullis_logins_total',
    help: 'Password logins by outcome: success, failure (wrong password or unknown account), locked',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const webhookAttempts = new Counter({
    name: 'portcullis_webhook_deliveries_total',
    help: 'Webhook delivery attempts by event and outcome: delivered (2xx), retry (failed, scheduled again), failed (given up)',
    labelNames: ['event', 'outcome'] as const,
    registers: [registry],
  });
  let backlogProbe: (() => Promise<WebhookBacklog>) | undefined;
  new Gauge({
    name: 'portcullis_webhook_backlog',
    help: 'Webhook work waiting: events not yet fanned out (queue=events), deliveries pending or in flight (queue=deliveries)',
    labelNames: ['queue'] as const,
    registers: [registry],
    // Counted only when scraped (two indexed counts), never on the delivery path.
    async collect() {
      if (!backlogProbe) return;
      try {
        const backlog = await backlogProbe();
        this.set({ queue: 'events' }, backlog.events);
        this.set({ queue: 'deliveries' }, backlog.deliveries);
      } catch {
        // A database hiccup must not fail the whole scrape; the gauge keeps its last value.
      }
    },
  });
  return {
    registry,
    webhookDelivery(event, outcome) {
      webhookAttempts.inc({ event, outcome });
    },
    webhookBacklog(probe) {
      backlogProbe = probe;
    },
    limited(route, bucket) {
      limited.inc({ route, bucket });
    },
    login(outcome) {
      logins.inc({ outcome });
    },
    observe(route, method, status, seconds) {
      requests.observe(route, method, status, seconds);
    },
  };
}

/**
 * What every request of the main listener leaves behind once answered: its count and latency, the limit
 * that refused it if one did, and its access line (request-log.ts). One callback-style hook, so a request
 * pays no promise for it; request loggers are made lazily (request-log.ts) from here too.
 */
export function registerRequestObserver(http: FastifyInstance, metrics: HttpMetrics, logger: Logger): void {
  http.setChildLoggerFactory(lazyRequestLogger);
  const writeAccessLine = accessLogger(logger);
  http.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.observe(route, request.method, reply.statusCode, reply.elapsedTime / 1000);
    const bucket = limitedBucket(request);
    if (bucket) metrics.limited(route, bucket);
    writeAccessLine(request, reply, route);
    done();
  });
}

/** The metrics listener: GET /metrics and nothing else. */
export function createMetricsServer(metrics: HttpMetrics): FastifyInstance {
  const server = Fastify({ logger: false, schemaController: { compilersFactory: NO_ROUTE_SCHEMAS } });
  server.get('/metrics', async (_request, reply) => {
    reply.header('content-type', metrics.registry.contentType);
    return metrics.registry.metrics();
  });
  return server;
}
