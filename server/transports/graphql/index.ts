/**
 * GraphQL transport: the registry's schema served by mercurius at POST /graphql (register.ts mounts it;
 * runtime.ts is the GraphQL stack, loaded with the first request). Errors map per errors.ts.
 * This module gathers the transport's entry points for tests and tools; the server imports register.ts,
 * which loads no graphql-js at start.
 */
export { registerGraphql } from './register.ts';
export { buildGraphqlSchema } from './schema.ts';
export { selectionFor, graphqlRequestFor } from './selection.ts';
