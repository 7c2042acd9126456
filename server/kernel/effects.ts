/**
 * What an operation asks the transport to do besides returning its result. HTTP turns cookies into real
 * Set-Cookie headers (docs/api-overview.md#three-protocols-one-registry); gRPC sends them as `set-cookie` metadata;
 * GraphQL over HTTP uses the HTTP response. Handlers never see a transport's types.
 */
export interface CookieSpec {
  name: string;
  value: string;
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  httpOnly: boolean;
  secure: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
  path: string;
  domain?: string;
}

export class ResponseEffects {
  readonly cookies: CookieSpec[] = [];
  readonly headers: Record<string, string> = {};

  /** A later setting of the same cookie (name, domain, path) replaces the earlier one: one header each. */
  setCookie(cookie: CookieSpec): void {
    const same = this.cookies.findIndex((c) => c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path);
    if (same >= 0) this.cookies.splice(same, 1);
    this.cookies.push(cookie);
  }

  clearCookie(cookie: Omit<CookieSpec, 'value' | 'maxAge'>): void {
    this.setCookie({ ...cookie, value: '', maxAge: 0 });
  }
}

/** Serialises a cookie as one Set-Cookie header value (RFC 6265 section 4.1). */
export function serializeCookie(cookie: CookieSpec): string {
  const parts = [`${cookie.name}=${encodeURIComponent(cookie.value)}`, `Path=${cookie.path}`, `Max-Age=${cookie.maxAge}`];
  if (cookie.maxAge === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (cookie.domain) parts.push(`Domain=${cookie.domain}`);
  if (cookie.httpOnly) parts.push('HttpOnly');
  if (cookie.secure) parts.push('Secure');
  parts.push(`SameSite=${cookie.sameSite}`);
  return parts.join('; ');
}

/** Parses a Cookie request header (RFC 6265 section 5.4) into a name to value map; first value wins. */
export function parseCookieHeader(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    if (!name || name in out) continue;
    const raw = pair.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    try {
      out[name] = decodeURIComponent(raw);
    } catch {
      out[name] = raw;
    }
  }
  return out;
}
