/**
 * No route of this server's Fastify instances declares a Fastify JSON schema: every input is checked by the
 * operation pipeline (ops/), against the operation's own schema, on every protocol alike, and replies are
 * serialised as plain JSON. Given no compilers, Fastify loads ajv and fast-json-stringify (about 100
 * modules) when an instance is built, for schemas that never come. These compilers refuse instead, so a
 * route schema added later fails the start loudly rather than being checked by a second validator.
 */
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;

function refuseRouteSchema(route: { method?: unknown; url?: unknown }): never {
  throw new Error(`${String(route.method)} ${String(route.url)} declares a Fastify schema; inputs are checked by the operation pipeline (transports/http/no-route-schemas.ts)`);
}

/** Fastify calls a factory for a compiler, then the compiler with the route; ajv's pool types do not fit a refusal. */
const refusingFactory = () => refuseRouteSchema;

export const NO_ROUTE_SCHEMAS: CompilersFactory = {
  buildValidator: refusingFactory as unknown as CompilersFactory['buildValidator'],
  buildSerializer: refusingFactory as unknown as CompilersFactory['buildSerializer'],
};
