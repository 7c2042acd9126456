/**
 * Where and how an authorization response goes (RFC 6749 sections 4.1.2 and 4.2.2; OAuth 2.0 Multiple
 * Response Type Encoding Practices section 2.1; OAuth 2.0 Form Post Response Mode; web_message of
 * docs/sdk-compatibility.md). query and fragment are redirects built here; form_post and web_message
 * are pages the HTTP transport renders from the same fields.
 */
export const RESPONSE_MODES = ['query', 'fragment', 'form_post', 'web_message'] as const;
export type ResponseMode = (typeof RESPONSE_MODES)[number];

export interface ResponseTarget {
  readonly redirectUri: string;
  readonly responseMode: ResponseMode;
  /** Echoed exactly as received (RFC 6749 section 4.1.2). */
  readonly state?: string;
}

/**
 * The mode used when the request names none (or names one it cannot use): --default-authorize-response-mode
 * for codes (docs/configuration.md#defaults: query); fragment for tokens when that default is query (Multiple
 * Response Type Encoding Practices section 2.1: tokens never in the query).
 */
export function defaultResponseMode(responseType: 'code' | 'token', configured: string): ResponseMode {
  const mode = (RESPONSE_MODES as readonly string[]).includes(configured) ? (configured as ResponseMode) : 'query';
  if (responseType === 'token' && mode === 'query') return 'fragment';
  return mode;
}

/** The fields of a response: state and iss (RFC 9207 section 2) are added to what the caller gives. */
export function responseFields(target: ResponseTarget, issuer: string, fields: Record<string, string | undefined>): Record<string, string> {
  const all: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) all[name] = value;
  if (target.state !== undefined) all.state = target.state;
  all.iss = issuer;
  return all;
}

/**
 * The redirect of the query and fragment modes: the fields are added to the redirect_uri's own query
 * (RFC 6749 section 3.1.2: its query component is retained) or put in the fragment.
 */
export function redirectUrl(target: ResponseTarget, fields: Record<string, string>): string {
  const url = new URL(target.redirectUri);
  if (target.responseMode === 'fragment') {
    url.hash = new URLSearchParams(fields).toString();
  } else {
    for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
  }
  return url.toString();
}
