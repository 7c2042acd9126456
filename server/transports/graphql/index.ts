/** GraphQL transport (placeholder until the GraphQL adapter lands). */
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../kernel/deps.ts';
import type { Registry } from '../../ops/registry.ts';

export async function registerGraphql(_http: FastifyInstance, _deps: Deps, _registry: Registry): Promise<void> {}
