/**
 * What a handler may see of the request: who calls, how to reach storage and configuration, and where to
 * put its side effects. Transports build it; nothing below transports/ sees Fastify or gRPC types.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Logger } from 'pino';
import type { ResponseEffects } from './effects.ts';
import type { Deps } from './deps.ts';
import type { RequestBudget } from './request-budget.ts';

/** How the request came: an operation over GraphQL, REST or gRPC, a module endpoint over HTTP, or the server itself. */
export type Protocol = 'graphql' | 'rest' | 'grpc' | 'http-endpoint' | 'internal';

export interface RequestMeta {
  requestId: string;
  protocol: Protocol;
  /** Client IP per --trusted-proxies (docs/configuration.md). */
  ip: string;
  userAgent?: string;
  origin?: string;
  host?: string;
}

/** Raw credentials as presented; authenticators turn them into a Caller. */
export interface Credentials {
  bearer?: string;
  cookies: Record<string, string>;
  adminSecretHeader?: string;
}

export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'super_admin'; via: 'header' | 'cookie' }
  | { kind: 'user'; userId: string; sessionId?: string; claims?: Record<string, unknown> }
  /**
   * A sign-in waiting for its second factor, named by the `mfa` cookie (docs/api-overview.md#authentication): `verify` while
   * a challenge of an enrolled factor is pending, `offer` while a first-time offer withholds the token.
   */
  | { kind: 'mfa'; userId: string; challengeId: string; stage: 'verify' | 'offer' }
  /** A registered client calling for itself with a client_credentials token (the AuthZEN PDP, docs/authzen.md). */
  | { kind: 'client'; clientId: string };

export interface OpContext {
  readonly deps: Deps;
  readonly req: RequestMeta;
  readonly credentials: Credentials;
  readonly effects: ResponseEffects;
  readonly log: Logger;
  caller: Caller;
  /**
   * Permission checks left to the whole transport request, shared by every root field of one GraphQL
   * document (request-budget.ts). Absent where one request carries one operation (gRPC, internal calls):
   * the operation then bounds itself per call.
   */
  readonly permissionChecks?: RequestBudget;
}

/**
 * Whether a handler's `em` is a transaction's, without forking a unit of work that is made on first use:
 * ops/invoke.ts gives a handler outside a transaction a lazy `em` (an accessor property), which is outside
 * any transaction by construction (transactions run on the fork `em.transactional` hands its callback, a
 * plain property of the context it builds). Reading `ctx.em` instead would fork just to ask.
 */
export function inTransaction(ctx: { readonly em?: EntityManager }): boolean {
  if (Object.getOwnPropertyDescriptor(ctx, 'em')?.get) return false;
  return ctx.em?.isInTransaction() ?? false;
}
