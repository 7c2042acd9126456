/**
 * Mounts GraphQL on the main HTTP listener (docs/api-overview.md#http-endpoints-outside-v1) without loading graphql-js: the routes
 * are registered at start, the GraphQL stack with the first request (route.ts, runtime.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';
import { graphqlRoutes } from './route.ts';

export async function registerGraphql(http: FastifyInstance, deps: Deps, registry: Registry): Promise<void> {
  await http.register(graphqlRoutes(deps, registry));
}
