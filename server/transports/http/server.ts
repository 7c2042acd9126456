/**
 * The main HTTP listener: Fastify with the cross-cutting policy, health, REST, and GraphQL mounted on it.
 * It never listens here (fastify habit: build separate from listen; tests use inject()).
 */
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';
import { registerRequestObserver, type HttpMetrics } from './metrics.ts';
import { httpErrorHandler, notFoundHandler } from './errors.ts';
import { registerRateLimit } from './rate-limit.ts';
import { registerSecurity } from './security.ts';
import { registerJsonBodyParser } from './json-body.ts';
import { registerNdjsonBodyParser } from './import-users-route.ts';
import { registerHealth } from './health.ts';
import { registerRestRoutes } from './rest-routes.ts';
import { registerGraphql } from '../graphql/register.ts';
import { registerModuleEndpoints } from './endpoints.ts';
import { registerVerifyEmailLink } from './verify-email-link.ts';
import { NO_ROUTE_SCHEMAS } from './no-route-schemas.ts';
import { registerUiRoutes } from './ui/ui-routes.ts';
import { registerOpenApiRoute } from './openapi-route.ts';

export interface HttpServerOptions {
  metrics: HttpMetrics;
  isShuttingDown: () => boolean;
}

export async function createHttpServer(deps: Deps, registry: Registry, options: HttpServerOptions): Promise<FastifyInstance> {
  const { config } = deps;
  const http = Fastify({
    loggerInstance: deps.logger as unknown as FastifyBaseLogger,
    // Request ids are ours, never taken from the caller, so a log line cannot be forged by a header.
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    bodyLimit: 1024 * 1024,
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // Inputs are checked by the operation pipeline; Fastify's ajv is never loaded (no-route-schemas.ts).
    schemaController: { compilersFactory: NO_ROUTE_SCHEMAS },
  });
  // First hook of all: a request over its IP's allowance is refused before any other work.
  registerRateLimit(http, deps);
  http.setErrorHandler(httpErrorHandler as Parameters<typeof http.setErrorHandler>[0]);
  http.setNotFoundHandler(notFoundHandler);
  registerJsonBodyParser(http);
  http.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });
  registerNdjsonBodyParser(http);
  registerRequestObserver(http, options.metrics, deps.logger);
  await registerSecurity(http, deps);
  registerHealth(http, deps, options.isShuttingDown);
  registerVerifyEmailLink(http, deps);
  await registerModuleEndpoints(http, deps);
  // REST is mounted only when the gRPC server is enabled (docs/api-overview.md#three-protocols-one-registry).
  if (config.enableGrpc) registerRestRoutes(http, deps, registry);
  // The document of /v1 (openapi-route.ts) is served where /v1 is.
  if (config.enableGrpc) registerOpenApiRoute(http, registry);
  await registerGraphql(http, deps, registry);
  registerUiRoutes(http, deps);
  return http;
}
