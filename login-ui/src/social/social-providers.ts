/**
 * Upstream social sign-in (docs/api-overview.md#parameters-of-the-oauth-and-sign-in-endpoints): which providers this
 * server has switched on (meta is_<provider>_login_enabled, true when --<provider>-client-id is set) and the
 * link that starts each one, carrying the application's round trip so the person still ends up there.
 */
import type { RoundTrip } from '../round-trip/round-trip.ts';

/** The providers the server knows (server/config/flags.ts SOCIAL_PROVIDERS), in the order buttons appear. */
export const SOCIAL_PROVIDERS = [
  'google', 'github', 'microsoft', 'apple', 'facebook', 'linkedin', 'discord', 'twitter', 'twitch', 'roblox',
] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];

export type SocialFlags = { [P in SocialProvider as `is_${P}_login_enabled`]: boolean };

export function enabledProviders(meta: SocialFlags): SocialProvider[] {
  return SOCIAL_PROVIDERS.filter((provider) => meta[`is_${provider}_login_enabled`]);
}

/** A random state for a sign-in that has no application state to carry (the endpoint requires one). */
function freshState(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Where /oauth_login sends the browser when the upstream sign-in succeeds (its redirect_uri, vetted by the
 * server against the same allow-list as this page's), and the state it appends there.
 *
 * - An application round trip with its own state: straight back to the application with that state.
 * - A round trip without a state (the /authorize resume URL, which carries the client's state inside its
 *   own query): back through this login page instead, which the server vets again and which then sets the
 *   state on the target. The state given is the one the target already carries, so setting it changes
 *   nothing; a target without any gets a fresh one, the same the application would get from the endpoint.
 *   Sending the resume URL to /oauth_login directly would have the endpoint append a second state to it
 *   (RFC 6749 section 3.1: a parameter must not be sent twice).
 * - No round trip: this login page, which shows the signed-in page.
 */
export function socialReturn(roundTrip: RoundTrip, origin: string): { redirectUri: string; state: string } {
  if (!roundTrip.redirectUri) return { redirectUri: `${origin}/app`, state: freshState() };
  if (roundTrip.state !== undefined) return { redirectUri: roundTrip.redirectUri, state: roundTrip.state };
  const ownState = new URL(roundTrip.redirectUri).searchParams.get('state');
  const viaLoginPage = new URL(`${origin}/app`);
  viaLoginPage.searchParams.set('redirect_uri', roundTrip.redirectUri);
  return { redirectUri: viaLoginPage.toString(), state: ownState || freshState() };
}

/** `/oauth_login/<provider>?redirect_uri=…&state=…` on this server (a full page load, not an in-app route). */
export function socialLoginHref(provider: SocialProvider, roundTrip: RoundTrip, origin: string): string {
  const { redirectUri, state } = socialReturn(roundTrip, origin);
  const params = new URLSearchParams({ redirect_uri: redirectUri, state });
  return `/oauth_login/${provider}?${params.toString()}`;
}
