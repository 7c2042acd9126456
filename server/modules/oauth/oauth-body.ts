/**
 * Bodies of the OAuth endpoints. docs/sdk-compatibility.md: /oauth/token and /oauth/revoke take JSON as
 * well as form-urlencoded bodies; the client SDK sends JSON text without a Content-Type, which fetch labels
 * text/plain, so a string body is read as JSON first and as a form second.
 */
export type OAuthBody = Record<string, unknown>;

/** The fields of a request body as the transport parsed it: an object, or text to read as JSON or form. */
export function readOAuthBody(body: unknown): OAuthBody {
  if (typeof body === 'string') {
    const text = body.trim();
    if (text.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(text);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as OAuthBody;
      } catch {
        // Not JSON after all: fall through to the form reading, which yields no useful fields.
      }
    }
    return Object.fromEntries(new URLSearchParams(text));
  }
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as OAuthBody;
  return {};
}

/** A non-empty string field; other types (numbers, objects) count as absent. */
export function stringField(body: OAuthBody, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Space-separated scope (RFC 6749 section 3.3); a JSON array of strings is accepted too. */
export function scopeField(body: OAuthBody): string[] | undefined {
  const value = body.scope;
  if (Array.isArray(value)) {
    const list = value.filter((v): v is string => typeof v === 'string' && v !== '');
    return list.length > 0 ? list : undefined;
  }
  const text = stringField(body, 'scope');
  return text ? text.split(/\s+/) : undefined;
}
