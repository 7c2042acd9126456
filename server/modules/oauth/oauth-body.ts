/**
 * The fields of an OAuth endpoint's body, as the endpoint adapter read it (transports/http/oauth-body.ts:
 * JSON, form-urlencoded, or text of either without a Content-Type, docs/sdk-compatibility.md).
 */
export type OAuthBody = Record<string, unknown>;

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
