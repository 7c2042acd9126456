/**
 * Builds the transport-neutral OpContext from a Fastify request and applies ResponseEffects to the reply.
 * Client IP comes from Fastify's trustProxy, which is set from --trusted-proxies only (docs/configuration.md:
 * by default X-Forwarded-For is ignored).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Deps } from '../../kernel/deps.ts';
import type { OpContext, Protocol } from '../../kernel/context.ts';
import { ResponseEffects, parseCookieHeader, serializeCookie } from '../../kernel/effects.ts';
import { permissionCheckBudget, type RequestBudget } from '../../kernel/request-budget.ts';

/**
 * One permission-check budget per HTTP request: GraphQL builds a context per root field from the same
 * Fastify request, so aliased fields share it (docs/limits.md, "Checks per request"). A REST route
 * builds the one context of its request, which gets a budget of its own without this table.
 */
const checkBudgets = new WeakMap<FastifyRequest, RequestBudget>();

function checkBudgetOf(request: FastifyRequest): RequestBudget {
  let budget = checkBudgets.get(request);
  if (!budget) {
    budget = permissionCheckBudget();
    checkBudgets.set(request, budget);
  }
  return budget;
}

export function bearerFrom(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header.trim());
  return match?.[1]?.trim() || undefined;
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function buildHttpContext(deps: Deps, request: FastifyRequest, protocol: Protocol): OpContext {
  return {
    deps,
    req: {
      requestId: String(request.id),
      protocol,
      ip: request.ip,
      userAgent: headerValue(request, 'user-agent'),
      origin: headerValue(request, 'origin'),
      host: headerValue(request, 'host'),
    },
    credentials: {
      bearer: bearerFrom(headerValue(request, 'authorization')),
      cookies: parseCookieHeader(headerValue(request, 'cookie')),
      adminSecretHeader: headerValue(request, 'x-service-admin-secret'),
    },
    effects: new ResponseEffects(),
    // Fastify's logger is the pino instance buildApp passed in, child-bound to this request id.
    log: request.log as unknown as Logger,
    caller: { kind: 'anonymous' },
    permissionChecks: protocol === 'graphql' ? checkBudgetOf(request) : permissionCheckBudget(),
  };
}

/** Real Set-Cookie headers (docs/api-overview.md#three-protocols-one-registry). */
export function applyEffects(reply: FastifyReply, effects: ResponseEffects): void {
  if (effects.cookies.length > 0) {
    const existing = reply.getHeader('set-cookie');
    const previous = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
    reply.header('set-cookie', [...previous, ...effects.cookies.map(serializeCookie)]);
  }
  for (const [name, value] of Object.entries(effects.headers)) reply.header(name, value);
}
