/**
 * Prometheus metrics (prom-client): process metrics, request counts and latency by route and status
 * (request-series.ts), and every metric the modules declare in their manifests (kernel/metrics.ts
 * MetricDeclaration: requests refused by a limit, password logins, webhook deliveries and backlog), counted
 * through the kernel Metrics interface. Served only by the dedicated metrics listener
 * (docs/api-overview.md#http-endpoints-outside-v1), never on the main port.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { Registry, collectDefaultMetrics, Counter, Gauge } from 'prom-client';
import type { MetricDeclaration, Metrics } from '../../kernel/metrics.ts';
import { MODULES, type ModuleManifest } from '../../modules/index.ts';
import { RATE_LIMITED_METRIC } from '../../modules/limits/index.ts';
import { LOGINS_METRIC } from '../../modules/accounts/index.ts';
import { WEBHOOK_BACKLOG_METRIC, WEBHOOK_DELIVERIES_METRIC } from '../../modules/webhooks/index.ts';
import { limitedBucket } from './errors.ts';
import { accessLogger, lazyRequestLogger } from './request-log.ts';
import { NO_ROUTE_SCHEMAS } from './no-route-schemas.ts';
import { RequestSeries } from './request-series.ts';

export interface HttpMetrics extends Metrics {
  readonly registry: Registry;
  observe(route: string, method: string, status: number, seconds: number): void;
}

export function createHttpMetrics(modules: readonly ModuleManifest[] = MODULES): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new RequestSeries(registry, {
    countName: 'portcullis_http_requests_total',
    countHelp: 'HTTP requests by route, method and status',
    latencyName: 'portcullis_http_request_duration_seconds',
    latencyHelp: 'HTTP request latency by route, method and status',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  });
  const declared = registerDeclaredMetrics(registry, modules.flatMap((module) => module.metrics));
  // Resolved once here, so that counting costs what a prom-client inc costs and no name lookup.
  const limited = declared.counter(RATE_LIMITED_METRIC);
  const logins = declared.counter(LOGINS_METRIC);
  const webhookAttempts = declared.counter(WEBHOOK_DELIVERIES_METRIC);
  return {
    registry,
    webhookDelivery(event, outcome) {
      webhookAttempts.inc({ event, outcome });
    },
    webhookBacklog(probe) {
      declared.probe(WEBHOOK_BACKLOG_METRIC, async (set) => {
        const backlog = await probe();
        set({ queue: 'events' }, backlog.events);
        set({ queue: 'deliveries' }, backlog.deliveries);
      });
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

type GaugeProbe = (set: (labels: Record<string, string>, value: number) => void) => Promise<void>;

interface DeclaredMetrics {
  counter<L extends string>(declaration: MetricDeclaration<L>): Counter<L>;
  /** How the declared gauge is read on each scrape; until set, the gauge has no series. */
  probe(declaration: MetricDeclaration, read: GaugeProbe): void;
}

/**
 * Registers each declared metric once, in module order; refuses a name declared twice or a declaration the
 * Metrics methods name but no module declares (both wiring mistakes, found at start).
 */
function registerDeclaredMetrics(registry: Registry, declarations: readonly MetricDeclaration[]): DeclaredMetrics {
  const counters = new Map<string, Counter<string>>();
  const probes = new Map<string, GaugeProbe>();
  const gauges = new Set<string>();
  for (const declaration of declarations) {
    const { name, help, labels } = declaration;
    if (counters.has(name) || gauges.has(name)) throw new Error(`metric ${name} is declared twice`);
    if (declaration.kind === 'counter') {
      counters.set(name, new Counter({ name, help, labelNames: labels, registers: [registry] }));
      continue;
    }
    gauges.add(name);
    new Gauge({
      name,
      help,
      labelNames: labels,
      registers: [registry],
      // Counted only when scraped (webhooks: two indexed counts), never on the path that changes it.
      async collect() {
        const read = probes.get(name);
        if (!read) return;
        try {
          await read((labels, value) => this.set(labels, value));
        } catch {
          // A database hiccup must not fail the whole scrape; the gauge keeps its last value.
        }
      },
    });
  }
  return {
    counter<L extends string>(declaration: MetricDeclaration<L>): Counter<L> {
      const counter = counters.get(declaration.name);
      if (!counter) throw new Error(`no module declares the counter ${declaration.name}`);
      return counter as Counter<L>;
    },
    probe(declaration, read) {
      if (!gauges.has(declaration.name)) throw new Error(`no module declares the gauge ${declaration.name}`);
      probes.set(declaration.name, read);
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
