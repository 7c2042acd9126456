/**
 * The server-side state of one organization SSO sign-in, as social sign-in keeps its own
 * (social/login-state.ts): RFC 6749 section 10.12 CSRF defence with the state bound to the user agent
 * (RFC 9700 section 4.7.1), PKCE S256 (RFC 7636), the OpenID Connect Core 3.1.2.1 nonce. The row is named
 * by the digest of the random `state` sent to the IdP, bound to the browser by the digest of a short-lived
 * HttpOnly SameSite=Lax cookie, lives ten minutes and is used once.
 */
import { createHash } from 'node:crypto';
import type { Deps } from '../../kernel/deps.ts';
import type { CookieSpec } from '../../kernel/effects.ts';
import { constantTimeEqual, randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { OrgSsoLoginState } from './org-sso.entities.ts';

export const SSO_STATE_SECONDS = 10 * 60;
export const SSO_BINDING_COOKIE = 'portcullis_sso';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface NewSsoFlow {
  orgId: string;
  connectionId: string;
  issuer: string;
  redirectUri: string;
  appState: string;
  scope: string[];
}

export interface StartedSsoFlow {
  state: string;
  codeChallenge: string;
  nonce: string;
  bindingCookie: CookieSpec;
}

export interface SsoFlow extends NewSsoFlow {
  verifier: string;
  nonce: string;
}

function bindingCookie(deps: Pick<Deps, 'config'>, value: string): CookieSpec {
  // Lax: the callback is a top-level GET navigation from the IdP, which Lax cookies accompany, while
  // cross-site subrequests and POSTs do not carry it (RFC 6265bis 8.8). Path /sso: no other route needs it.
  return { name: SSO_BINDING_COOKIE, value, maxAge: SSO_STATE_SECONDS, httpOnly: true, secure: deps.config.appCookieSecure, sameSite: 'Lax', path: '/sso' };
}

/** Writes the flow's row. A browser keeps its binding value across flows (two tabs both finish). */
export async function startSsoFlow(deps: Pick<Deps, 'config' | 'storage' | 'sealer' | 'clock'>, presentedBinding: string | undefined, data: NewSsoFlow): Promise<StartedSsoFlow> {
  const binding = presentedBinding && TOKEN_PATTERN.test(presentedBinding) ? presentedBinding : randomToken(32);
  const state = randomToken(32);
  const verifier = randomToken(32);
  const nonce = randomToken(24);
  const now = deps.clock.now();
  const em = deps.storage.fork();
  // Housekeeping: expired flows go when new ones start (an index on expiresAt keeps this cheap).
  await em.nativeDelete(OrgSsoLoginState, { expiresAt: { $lt: now } });
  em.create(OrgSsoLoginState, {
    id: sha256Hex(state),
    orgId: data.orgId,
    connectionId: data.connectionId,
    issuer: data.issuer,
    bindingHash: sha256Hex(binding),
    secrets: deps.sealer.seal(JSON.stringify({ verifier, nonce })),
    redirectUri: data.redirectUri,
    appState: data.appState,
    scope: data.scope,
    expiresAt: new Date(now.getTime() + SSO_STATE_SECONDS * 1000),
    createdAt: now,
  });
  await em.flush();
  return { state, codeChallenge: createHash('sha256').update(verifier).digest('base64url'), nonce, bindingCookie: bindingCookie(deps, binding) };
}

export type TakenSsoFlow = { ok: true; flow: SsoFlow } | { ok: false; reason: 'unknown' | 'wrong_browser' };

/**
 * Finds and deletes the flow named by `state` if this browser started it and it has not expired. The
 * delete is the single-use check (of two concurrent callbacks only one deletes the row). A mismatched
 * browser does not burn the row: someone who merely saw the URL cannot cancel the real flow.
 */
export async function takeSsoFlow(deps: Pick<Deps, 'storage' | 'sealer' | 'clock'>, state: string | undefined, presentedBinding: string | undefined): Promise<TakenSsoFlow> {
  if (!state || state.length > 128) return { ok: false, reason: 'unknown' };
  const em = deps.storage.fork();
  const id = sha256Hex(state);
  const row = await em.findOne(OrgSsoLoginState, { id });
  if (!row || row.expiresAt.getTime() <= deps.clock.now().getTime()) return { ok: false, reason: 'unknown' };
  if (!presentedBinding || !constantTimeEqual(sha256Hex(presentedBinding), row.bindingHash)) return { ok: false, reason: 'wrong_browser' };
  if ((await em.nativeDelete(OrgSsoLoginState, { id })) !== 1) return { ok: false, reason: 'unknown' };
  const secrets = JSON.parse(deps.sealer.open(row.secrets)) as { verifier: string; nonce: string };
  return {
    ok: true,
    flow: {
      orgId: row.orgId,
      connectionId: row.connectionId,
      issuer: row.issuer,
      redirectUri: row.redirectUri,
      appState: row.appState,
      scope: row.scope,
      verifier: secrets.verifier,
      nonce: secrets.nonce,
    },
  };
}
