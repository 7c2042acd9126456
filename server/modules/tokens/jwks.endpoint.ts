/**
 * GET /.well-known/jwks.json (RFC 7517 section 5; docs/api-overview.md#http-endpoints-outside-v1): the public
 * signing key with its kid, and no key at all for HMAC (a shared secret is never published). Cacheable for
 * five minutes, as the discovery documents that name it.
 */
import { defineEndpoint } from '../../ops/endpoint.ts';

export const jwksEndpoint = defineEndpoint({
  name: 'jwks',
  methods: ['GET'],
  path: '/.well-known/jwks.json',
  csrf: 'origin',
  body: 'none',
  errors: 'oauth',
  handler: async (_request, ctx) => ({
    kind: 'json',
    body: ctx.deps.keys.jwks,
    headers: { 'cache-control': 'public, max-age=300' },
  }),
});
