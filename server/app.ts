/**
 * buildApp(config, overrides?) assembles one server: logger, storage, authenticators, the HTTP listener
 * (REST + GraphQL), the gRPC server and the metrics listener. It never listens (the test seam); see
 * listen.ts for that.
 */
import type { FastifyInstance } from 'fastify';
import type { Server as GrpcServer } from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { Config } from './config/flags.ts';
import { API_VERSION } from './version.ts';
import { systemClock, type Clock, type Deps } from './kernel/deps.ts';
import { createLogger } from './kernel/logger.ts';
import type { Storage } from './storage/types.ts';
import { openStorage } from './storage/open-storage.ts';
import { ENTITIES } from './modules/entities.ts';
import { createModuleWorkers, startModuleServices, wireModuleHooks } from './modules/index.ts';
import { registry as defaultRegistry, type Registry } from './ops/registry.ts';
import { firstPresented, publicAuthenticator, type Authenticators } from './ops/auth.ts';
import { adminAuthenticator, adminCredentialsPresented } from './modules/admin/index.ts';
import { loadSigningKeys, userAuthenticator, userCredentialsPresented } from './modules/tokens/index.ts';
import { mfaCookieAuthenticator, mfaCookiePresented, mfaOfferAuthenticator } from './modules/mfa/index.ts';
import { pdpClientAuthenticator } from './modules/authzen/index.ts';
import { createHttpServer } from './transports/http/server.ts';
import { createHttpMetrics, createMetricsServer } from './transports/http/metrics.ts';
import { createGrpcServer } from './transports/grpc/index.ts';
import { createSealer } from './kernel/encryption.ts';
import { createFgaService } from './modules/fga/index.ts';
import { createFgaStore } from './modules/fga/store/index.ts';
import type { FgaStore } from './modules/fga/types.ts';
import type { MessageOutbox, OutboxOptions } from './modules/messages/index.ts';
import type { WebhookWorker, WebhookWorkerOptions } from './modules/webhooks/index.ts';
import type { BackchannelWorkerOptions } from './modules/oauth/backchannel/index.ts';
import { createRateLimiter, memoryFactory, policiesFor } from './modules/limits/index.ts';
import type { RateLimiter } from './kernel/limits.ts';
import { startIdleCollector } from './idle-collector.ts';

export interface AppOverrides {
  logger?: Logger;
  storage?: Storage;
  clock?: Clock;
  registry?: Registry;
  /** The FGA store to use instead of the one --fga-store picks; null turns FGA off (the MongoDB case). */
  fgaStore?: FgaStore | null;
  /** Retry and poll timing of the message outbox worker (tests shorten the backoff). */
  outbox?: Partial<OutboxOptions>;
  /** Retry, poll and timeout settings of the webhook delivery worker (tests shorten them). */
  webhooks?: Partial<WebhookWorkerOptions>;
  /** Poll and retry settings of the back-channel logout worker (tests lengthen the poll to see the commit wake). */
  backchannel?: Partial<BackchannelWorkerOptions>;
}

export interface App {
  readonly deps: Deps;
  readonly registry: Registry;
  readonly http: FastifyInstance;
  readonly metricsHttp: FastifyInstance;
  /** undefined when --enable-grpc=false. */
  readonly grpc?: GrpcServer;
  /** The message outbox worker; tests await outbox.idle() for the mails and texts to leave. */
  readonly outbox: MessageOutbox;
  /** The webhook delivery worker; tests await webhooks.idle() for deliveries to settle. */
  readonly webhooks: WebhookWorker;
  /** Stops at once: listeners, workers after their current job, then storage. */
  close(): Promise<void>;
  /**
   * Graceful stop (docs/reverse-proxy.md#running-a-fleet): /readyz answers 503 and every answer carries
   * `Connection: close` for `drainDelayMs` while everything is still served, then close().
   */
  drain(drainDelayMs: number): Promise<void>;
}

export async function buildApp(config: Config, overrides: AppOverrides = {}): Promise<App> {
  // Upper modules' handlers for lower modules' events (kernel/hooks.ts), before anything can raise one.
  wireModuleHooks();
  const logger = overrides.logger ?? createLogger(config.logLevel, undefined, { env: config.env });
  // Keys first: a key that does not fit --jwt-type is a startup refusal before any connection is opened.
  const keys = await loadSigningKeys(config);
  const sealer = createSealer(config);
  // Before storage: an unreachable --redis-url is a startup refusal with nothing else opened yet. That order
  // keeps the limiter here rather than a module service (services are built after storage).
  const policies = policiesFor(config);
  const clock = overrides.clock ?? systemClock;
  let limits: RateLimiter;
  if (config.redisUrl) {
    // Loaded only with --redis-url (the bundle lowers this import to a lazy require): ioredis costs about
    // 20 MiB of resident memory that a single instance never needs.
    const { openRedisLimiter } = await import('./modules/limits/redis-limiter.ts');
    limits = await openRedisLimiter(policies, config.redisUrl, logger, clock);
  } else {
    limits = createRateLimiter(policies, memoryFactory, undefined, clock);
  }
  const storage = overrides.storage ?? (await openStorage(config, ENTITIES, logger).catch(async (err: unknown) => {
    await limits.close();
    throw err;
  }));
  const registry = overrides.registry ?? defaultRegistry;
  const authenticators: Authenticators = {
    public: publicAuthenticator,
    admin: adminAuthenticator,
    user: userAuthenticator,
    // Super-admin credentials first when presented, then the user's (docs/api-overview.md#authentication subject rule).
    user_or_admin: firstPresented(
      { presented: adminCredentialsPresented, authenticate: adminAuthenticator },
      { presented: userCredentialsPresented, authenticate: userAuthenticator },
    ),
    mfa_cookie: mfaCookieAuthenticator,
    // A signed-in user first; the `mfa` cookie only of a pending first-time offer (mfa-authenticator.ts).
    user_or_mfa_cookie: firstPresented(
      { presented: userCredentialsPresented, authenticate: userAuthenticator },
      { presented: mfaCookiePresented, authenticate: mfaOfferAuthenticator },
    ),
    // A registered client's client_credentials token for the AuthZEN PDP (modules/authzen/pdp-client.ts).
    pdp_client: pdpClientAuthenticator,
  };
  // --fga-store, or the main SQL database; undefined (FGA off) on MongoDB without --fga-store. Built here
  // rather than as a module service because tests hand their own store (AppOverrides.fgaStore).
  const fgaStore = overrides.fgaStore !== undefined ? overrides.fgaStore : await createFgaStore(config, storage, { logger, clock });
  const fga = fgaStore ? createFgaService(fgaStore, { allowUnconstrainedAgents: config.fgaAllowUnconstrainedAgents }) : undefined;
  // Every metric the modules declare in their manifests, plus the transport's request series.
  const metrics = createHttpMetrics();
  // The modules' background workers (modules/manifest.ts WorkerSpec): the message outbox, declared by
  // accounts, and webhook delivery. Created before Deps, which wakes the outbox after a commit (Deps.outbox);
  // started once the listeners exist. Options by worker name, as tests override them.
  const workers = createModuleWorkers({ outbox: overrides.outbox, webhooks: overrides.webhooks, 'backchannel-logout': overrides.backchannel });
  const deps: Deps = { config, logger, storage, clock, version: API_VERSION, authenticators, keys, sealer, fga, limits, metrics, ...workers.depsMembers };
  // What each module adds to Deps (modules/manifest.ts ServiceSpec): the token state cache, stored templates, ...
  const closeServices = await startModuleServices(deps).catch(async (err: unknown) => {
    await fga?.close();
    await limits.close();
    await storage.close();
    throw err;
  });
  let shuttingDown = false;
  const http = await createHttpServer(deps, registry, { metrics, isShuttingDown: () => shuttingDown });
  const metricsHttp = createMetricsServer(metrics);
  const grpc = !config.enableGrpc ? undefined : createGrpcServer(deps, registry);
  // While draining, each answer ends its keep-alive connection (RFC 9112 §9.6), so clients and proxies open
  // their next request elsewhere instead of meeting this listener after it closes.
  http.addHook('onSend', (_request, reply, payload, done) => {
    if (shuttingDown) reply.header('connection', 'close');
    done(null, payload);
  });
  workers.start(deps);
  // Memory comes back after a burst of load (idle-collector.ts); a no-op unless --expose-gc.
  const idleCollector = startIdleCollector();
  async function close(): Promise<void> {
    shuttingDown = true;
    idleCollector.stop();
    // No new connections; in-flight HTTP requests and gRPC calls finish (Node's server.close() ends idle
    // keep-alive connections at once), the three listeners in parallel.
    await Promise.all([
      http.close(),
      metricsHttp.close(),
      grpc ? new Promise<void>((resolve) => grpc.tryShutdown(() => resolve())) : undefined,
    ]);
    // After the listeners (no new jobs), before storage (a running delivery finishes its writes).
    await workers.stop();
    await fga?.close();
    await limits.close();
    await closeServices();
    await storage.close();
    logger.flush?.();
  }
  return {
    deps,
    registry,
    http,
    metricsHttp,
    grpc,
    outbox: workers.named<MessageOutbox>('outbox'),
    webhooks: workers.named<WebhookWorker>('webhooks'),
    async drain(drainDelayMs) {
      shuttingDown = true;
      // Load balancers see /readyz fail and stop sending here; requests that still come are served.
      if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
      await close();
    },
    close,
  };
}
