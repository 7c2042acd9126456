/**
 * The redirect_uri / state round trip of an application that sends its user here
 * (/app?redirect_uri=X&state=S): after sign-in the browser goes to X with state=S appended, never with a
 * token in the URL (the application reads its session with the cookie).
 *
 * Only the page's initial URL is trusted, because the server checked exactly that URL's redirect_uri
 * against its allow-list before serving this page (ui-routes.ts refuses any other with 400; OWASP ASVS
 * 5.1.5, no open redirect). The values are captured once at start and kept in memory: nothing typed later,
 * and nothing from an in-app navigation, can change the destination.
 */
export interface RoundTrip {
  /** The allowed destination the server vetted at page load, or undefined (stay on the signed-in page). */
  redirectUri?: string;
  state?: string;
}

/** Reads redirect_uri and state from a query string; a redirect_uri that is not http(s) is dropped. */
export function readRoundTrip(search: string): RoundTrip {
  const params = new URLSearchParams(search);
  const redirectUri = params.get('redirect_uri') ?? undefined;
  const state = params.get('state') ?? undefined;
  // Defence in depth beside the server's check: never navigate to javascript:, data: or a relative path.
  return { redirectUri: redirectUri && isHttpUrl(redirectUri) ? redirectUri : undefined, state: state || undefined };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** Where the browser goes after sign-in: redirect_uri with state set (replacing any state it carried). */
export function returnUrl(roundTrip: RoundTrip): string | undefined {
  if (!roundTrip.redirectUri) return undefined;
  const url = new URL(roundTrip.redirectUri);
  if (roundTrip.state !== undefined) url.searchParams.set('state', roundTrip.state);
  return url.toString();
}

/**
 * The host name shown to the person ("you will return to …"), so they can tell where they are sent. For the
 * authorization endpoint's resume URL (this server's /authorize, which sends a browser without a session
 * here) that is the client's redirect_uri inside it, not this server's own host. That inner address is not
 * vetted by this page's load, but /authorize only ever continues to the redirect_uri registered for the
 * client and shows an error page otherwise (RFC 6749 section 4.1.2.1), so the named host is where the person
 * ends up, or nowhere.
 */
export function returnHost(roundTrip: RoundTrip, origin: string = window.location.origin): string | undefined {
  if (!roundTrip.redirectUri) return undefined;
  const target = new URL(roundTrip.redirectUri);
  return (authorizationTarget(target, origin) ?? target).host;
}

/** The client's redirect_uri of an own-origin /authorize URL, when it is an http(s) address. */
function authorizationTarget(url: URL, origin: string): URL | undefined {
  if (url.origin !== origin || !url.pathname.endsWith('/authorize')) return undefined;
  const inner = url.searchParams.get('redirect_uri');
  return inner && isHttpUrl(inner) ? new URL(inner) : undefined;
}

/**
 * The redirect_uri given to operations whose emailed link must come back (signup verification, magic link,
 * password reset): this login page itself, carrying the application's redirect_uri and state. The link
 * then lands on /app, the server vets the inner redirect_uri again at that page load, and this page
 * finishes the round trip with the state (the emailed verification link carries no state of its own).
 * Our own origin is always an allowed redirect target (server/modules/accounts/redirect-uri.ts).
 * Undefined without a round trip: the server's default landing is /app already.
 */
export function emailedReturnUri(roundTrip: RoundTrip, origin: string = window.location.origin): string | undefined {
  if (!roundTrip.redirectUri) return undefined;
  // Already our own page (this page was opened from such a link): pass it on as it is, never nest.
  if (isOwnLoginPage(roundTrip.redirectUri, origin) && roundTrip.state === undefined) return roundTrip.redirectUri;
  return `${origin}/app${querySuffix(roundTrip)}`;
}

/** `?redirect_uri=…&state=…` for links inside this app that must keep the round trip, or ''. */
export function querySuffix(roundTrip: RoundTrip): string {
  const params = new URLSearchParams();
  if (roundTrip.redirectUri) params.set('redirect_uri', roundTrip.redirectUri);
  if (roundTrip.state !== undefined) params.set('state', roundTrip.state);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * A redirect_uri from an emailed link that points back at this login page (emailedReturnUri): following
 * it is a full page load, so the server vets the inner redirect_uri before any script runs.
 */
export function isOwnLoginPage(uri: string, origin: string = window.location.origin): boolean {
  try {
    const url = new URL(uri);
    return url.origin === origin && (url.pathname === '/app' || url.pathname.startsWith('/app/'));
  } catch {
    return false;
  }
}

/** Captured once, from the URL the server served this page for. */
export const initialRoundTrip: RoundTrip = readRoundTrip(window.location.search);
