/**
 * How the endpoint adapter reads an 'oauth' body (ops/endpoint.ts EndpointBodyKind). docs/sdk-compatibility.md:
 * /oauth/token and /oauth/revoke take JSON as well as form-urlencoded bodies; the client SDK sends JSON text
 * without a Content-Type, which fetch labels text/plain, so a string body is read as JSON first and as a
 * form second.
 */

/** The fields of a request body as Fastify parsed it: an object, or text to read as JSON or form. */
export function readOAuthBody(body: unknown): Record<string, unknown> {
  if (typeof body === 'string') {
    const text = body.trim();
    if (text.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      } catch {
        // Not JSON after all: fall through to the form reading, which yields no useful fields.
      }
    }
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as Record<string, unknown>;
  return {};
}
