/**
 * GET /openapi.json: the OpenAPI 3.1 document of REST /v1 (openapi-document.ts), made from the server's own
 * registry on the first request and kept, so it is the text of openapi/portcullis.v1.json byte for byte and
 * the single executable needs no file beside it. The generator is imported on that first request, not at
 * start. Public like /v1/meta: CORS and the security headers come from the policy hook (security.ts); the
 * ETag lets a client revalidate (RFC 9110 section 13.1.2).
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Registry } from '../../ops/registry.ts';

export const OPENAPI_PATH = '/openapi.json';

export function registerOpenApiRoute(http: FastifyInstance, registry: Registry): void {
  let document: { text: string; etag: string } | undefined;
  http.get(OPENAPI_PATH, async (request, reply) => {
    if (!document) {
      const { openApiText } = await import('./openapi-document.ts');
      const text = openApiText(registry);
      document = { text, etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"` };
    }
    reply.header('cache-control', 'no-cache').header('etag', document.etag);
    if (request.headers['if-none-match'] === document.etag) return reply.status(304).send();
    return reply.type('application/json; charset=utf-8').send(document.text);
  });
}
