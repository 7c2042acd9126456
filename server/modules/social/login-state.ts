/**
 * The server-side state of one social sign-in (RFC 6749 section 10.12 CSRF defence; RFC 9700 section 4.7.1:
 * state bound to the user agent, PKCE S256 per RFC 7636; OpenID Connect Core 3.1.2.1 nonce). The random
 * `state` sent upstream names the row; the row is bound to the browser by a short-lived HttpOnly SameSite=Lax
 * cookie, so a callback URL replayed in another browser (login CSRF, a leaked URL) finds no match. Rows live
 * ten minutes and are used once.
 */
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/core';
import type { Deps } from '../../kernel/deps.ts';
import type { CookieSpec } from '../../kernel/effects.ts';
import { constantTimeEqual, randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { SocialLoginState } from './social.entities.ts';

export const LOGIN_STATE_SECONDS = 10 * 60;
export const BINDING_COOKIE = 'portcullis_social';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface NewLoginState {
  provider: string;
  redirectUri: string;
  appState: string;
  roles: string[];
  scope: string[];
}

export interface StartedLoginState {
  /** Sent upstream as `state`. */
  state: string;
  /** PKCE code_challenge (S256) of the verifier kept server-side. */
  codeChallenge: string;
  nonce: string;
  /** Set on the answer: binds the flow to this browser. */
  bindingCookie: CookieSpec;
}

export interface LoginState extends NewLoginState {
  verifier: string;
  nonce: string;
}

function bindingCookie(deps: Pick<Deps, 'config'>, value: string, maxAge: number): CookieSpec {
  // Lax, not the session cookies' None: the callback is a top-level GET navigation from the upstream, which
  // Lax cookies accompany, while cross-site subrequests and POSTs do not carry it (RFC 6265bis 8.8).
  return { name: BINDING_COOKIE, value, maxAge, httpOnly: true, secure: deps.config.appCookieSecure, sameSite: 'Lax', path: '/' };
}

/**
 * Writes the state row. A browser keeps its binding value across flows (two tabs signing in at once both
 * finish); a missing or malformed one is replaced by a fresh random value.
 */
export async function startLoginState(deps: Pick<Deps, 'config' | 'storage' | 'sealer' | 'clock'>, presentedBinding: string | undefined, data: NewLoginState): Promise<StartedLoginState> {
  const binding = presentedBinding && TOKEN_PATTERN.test(presentedBinding) ? presentedBinding : randomToken(32);
  const state = randomToken(32);
  const verifier = randomToken(32);
  const nonce = randomToken(24);
  const now = deps.clock.now();
  const em = deps.storage.fork();
  // Housekeeping: expired flows go when new ones start (an index on expiresAt keeps this cheap).
  await em.nativeDelete(SocialLoginState, { expiresAt: { $lt: now } });
  em.create(SocialLoginState, {
    id: sha256Hex(state),
    provider: data.provider,
    bindingHash: sha256Hex(binding),
    secrets: deps.sealer.seal(JSON.stringify({ verifier, nonce })),
    redirectUri: data.redirectUri,
    appState: data.appState,
    roles: data.roles,
    scope: data.scope,
    expiresAt: new Date(now.getTime() + LOGIN_STATE_SECONDS * 1000),
    createdAt: now,
  });
  await em.flush();
  return {
    state,
    codeChallenge: createHash('sha256').update(verifier).digest('base64url'),
    nonce,
    bindingCookie: bindingCookie(deps, binding, LOGIN_STATE_SECONDS),
  };
}

export type TakeResult =
  | { ok: true; login: LoginState }
  | { ok: false; reason: 'unknown' | 'wrong_browser' };

/**
 * Finds and deletes the state named by `state` for `provider`, if this browser started it and it has not
 * expired. The delete is the single-use check: of two concurrent callbacks only one deletes the row. A
 * mismatched browser does not burn the row (someone who merely saw the URL cannot cancel the real flow).
 */
export async function takeLoginState(
  deps: Pick<Deps, 'storage' | 'sealer' | 'clock'>,
  provider: string,
  state: string | undefined,
  presentedBinding: string | undefined,
): Promise<TakeResult> {
  if (!state || state.length > 128) return { ok: false, reason: 'unknown' };
  const em: EntityManager = deps.storage.fork();
  const id = sha256Hex(state);
  const row = await em.findOne(SocialLoginState, { id });
  if (!row || row.provider !== provider || row.expiresAt.getTime() <= deps.clock.now().getTime()) return { ok: false, reason: 'unknown' };
  if (!presentedBinding || !constantTimeEqual(sha256Hex(presentedBinding), row.bindingHash)) return { ok: false, reason: 'wrong_browser' };
  if ((await em.nativeDelete(SocialLoginState, { id })) !== 1) return { ok: false, reason: 'unknown' };
  const secrets = JSON.parse(deps.sealer.open(row.secrets)) as { verifier: string; nonce: string };
  return {
    ok: true,
    login: {
      provider: row.provider,
      redirectUri: row.redirectUri,
      appState: row.appState,
      roles: row.roles,
      scope: row.scope,
      verifier: secrets.verifier,
      nonce: secrets.nonce,
    },
  };
}
