/**
 * The server-side state of one SAML sign-in (SAML 2.0 Profiles 4.1.3.3 and 4.1.4.3: the SP remembers the
 * AuthnRequest it sent and accepts only a response InResponseTo it; Bindings 3.4.3 and 3.5.3: RelayState is
 * an opaque reference to state kept by the SP, at most 80 bytes). The row is named by the digest of a random
 * RelayState handle and bound to the browser by the digest of a short-lived HttpOnly cookie, as OIDC flows
 * are (login-state.ts), lives ten minutes and is used once.
 *
 * The IdP returns the browser with a cross-site POST, which SameSite=Lax cookies do not accompany (RFC
 * 6265bis 8.8.2), so this cookie is SameSite=None, which browsers accept only with Secure: on an https
 * --url. On plain http (development) it falls back to Lax, which works only while the IdP is same-site.
 */
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../kernel/deps.ts';
import type { CookieSpec } from '../../kernel/effects.ts';
import { constantTimeEqual, randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { OrgSamlLoginState } from './saml-connection.entities.ts';
import { SSO_STATE_SECONDS } from './login-state.ts';

export const SAML_BINDING_COOKIE = 'portcullis_saml';
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** SAML 2.0 Core 1.3.4: an ID starts with a letter or underscore (xs:ID); ours are `_` and 40 hex digits. */
const REQUEST_ID = /^_[0-9a-f]{40}$/;

export interface NewSamlFlow {
  orgId: string;
  connectionId: string;
  idpEntityId: string;
  redirectUri: string;
  appState: string;
  scope: string[];
}

export interface SamlFlow extends NewSamlFlow {
  requestId: string;
  createdAt: Date;
}

export interface StartedSamlFlow {
  relayState: string;
  requestId: string;
  bindingCookie: CookieSpec;
}

function bindingCookie(deps: Pick<Deps, 'config'>, value: string): CookieSpec {
  const secure = deps.config.appCookieSecure;
  return { name: SAML_BINDING_COOKIE, value, maxAge: SSO_STATE_SECONDS, httpOnly: true, secure, sameSite: secure ? 'None' : 'Lax', path: '/sso' };
}

/** A fresh AuthnRequest ID: 160 random bits, unguessable so that no response can be prepared for it. */
export function newRequestId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

/** Writes the flow's row. A browser keeps its binding value across flows (two tabs both finish). */
export async function startSamlFlow(deps: Pick<Deps, 'config' | 'storage' | 'clock'>, presentedBinding: string | undefined, data: NewSamlFlow): Promise<StartedSamlFlow> {
  const binding = presentedBinding && TOKEN_PATTERN.test(presentedBinding) ? presentedBinding : randomToken(32);
  const relayState = randomToken(32);
  const requestId = newRequestId();
  const now = deps.clock.now();
  const em = deps.storage.fork();
  // Housekeeping: expired flows go when new ones start (an index on expiresAt keeps this cheap).
  await em.nativeDelete(OrgSamlLoginState, { expiresAt: { $lt: now } });
  em.create(OrgSamlLoginState, {
    id: sha256Hex(relayState),
    ...data,
    requestId,
    bindingHash: sha256Hex(binding),
    expiresAt: new Date(now.getTime() + SSO_STATE_SECONDS * 1000),
    createdAt: now,
  });
  await em.flush();
  return { relayState, requestId, bindingCookie: bindingCookie(deps, binding) };
}

export type TakenSamlFlow = { ok: true; flow: SamlFlow } | { ok: false; reason: 'unknown' | 'wrong_browser' };

/**
 * Finds and deletes the flow named by `relayState` if this browser started it and it has not expired. The
 * delete is the single-use check (of two concurrent posts only one deletes the row). A mismatched browser
 * does not burn the row: someone who merely saw the response cannot cancel the real flow.
 */
export async function takeSamlFlow(deps: Pick<Deps, 'storage' | 'clock'>, relayState: string | undefined, presentedBinding: string | undefined): Promise<TakenSamlFlow> {
  if (!relayState || relayState.length > 80) return { ok: false, reason: 'unknown' };
  const em = deps.storage.fork();
  const id = sha256Hex(relayState);
  const row = await em.findOne(OrgSamlLoginState, { id });
  if (!row || row.expiresAt.getTime() <= deps.clock.now().getTime()) return { ok: false, reason: 'unknown' };
  if (!presentedBinding || !constantTimeEqual(sha256Hex(presentedBinding), row.bindingHash)) return { ok: false, reason: 'wrong_browser' };
  if ((await em.nativeDelete(OrgSamlLoginState, { id })) !== 1) return { ok: false, reason: 'unknown' };
  if (!REQUEST_ID.test(row.requestId)) return { ok: false, reason: 'unknown' };
  return {
    ok: true,
    flow: {
      orgId: row.orgId,
      connectionId: row.connectionId,
      idpEntityId: row.idpEntityId,
      redirectUri: row.redirectUri,
      appState: row.appState,
      scope: row.scope,
      requestId: row.requestId,
      createdAt: row.createdAt,
    },
  };
}
