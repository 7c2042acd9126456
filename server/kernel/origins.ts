/**
 * Matching an Origin against --allowed-origins (docs/configuration.md): entries are exact origins or a
 * `*.` subdomain pattern (optionally with a scheme); the bare `*` allows any origin for uncredentialed
 * CORS but names none, so it never grants credentials or a redirect target. Shared by the HTTP policy
 * (CORS, CSRF) and the redirect allow-list of the account flows.
 */
export function originOf(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** Matches an origin against --allowed-origins; entries may use a leading `*.` for subdomains. */
export function originAllowed(allowed: readonly string[], origin: string): boolean {
  if (allowed.includes('*')) return true;
  return originListed(allowed, origin);
}

/**
 * Whether an origin is named by an explicit --allowed-origins entry (exact or `*.` wildcard); the bare `*`
 * names no origin. Only these origins get credentialed CORS.
 */
export function originListed(allowed: readonly string[], origin: string): boolean {
  const parsed = originOf(origin);
  if (!parsed) return false;
  return allowed.some((entry) => {
    if (entry === origin || entry === parsed.origin) return true;
    const wildcard = /^(https?:\/\/)?\*\.(.+)$/.exec(entry);
    if (!wildcard) return false;
    const [, scheme, suffix] = wildcard;
    if (scheme && `${parsed.protocol}//` !== scheme) return false;
    return parsed.host.endsWith(`.${suffix}`);
  });
}
