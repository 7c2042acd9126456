/**
 * The server-side state of one SAML sign-in (SAML 2.0 Profiles 4.1.3.3 and 4.1.4.3: the SP remembers the
 * AuthnRequest it sent and accepts only a response InResponseTo it; Bindings 3.4.3 and 3.5.3: RelayState is
 * an opaque reference to state kept by the SP, at most 80 bytes). The row is named by the digest of a random
 * RelayState handle and bound to the browser by the digest of a short-lived HttpOnly cookie, by the rules every
 * redirect sign-in shares (sessions/browser-flow.ts), lives ten minutes and is used once.
 *
 * The IdP returns the browser with a cross-site POST, which SameSite=Lax cookies do not accompany (RFC
 * 6265bis 8.8.2), so this cookie is SameSite=None, which browsers accept only with Secure: on an https
 * --url. On plain http (development) it falls back to Lax, which works only while the IdP is same-site.
 */
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../kernel/deps.ts';
import type { CookieSpec } from '../../kernel/effects.ts';
import { startBrowserFlow, takeBrowserFlow, type BrowserFlowKind } from '../sessions/index.ts';
import { OrgSamlLoginState, type OrgSamlLoginStateRow } from './saml-connection.entities.ts';
import { SSO_STATE_SECONDS } from './login-state.ts';

export const SAML_BINDING_COOKIE = 'portcullis_saml';
/** SAML 2.0 Core 1.3.4: an ID starts with a letter or underscore (xs:ID); ours are `_` and 40 hex digits. */
const REQUEST_ID = /^_[0-9a-f]{40}$/;

const SAML_FLOW: BrowserFlowKind<OrgSamlLoginStateRow> = {
  entity: OrgSamlLoginState,
  lifetimeSeconds: SSO_STATE_SECONDS,
  /** Bindings 3.4.3 and 3.5.3: RelayState is at most 80 bytes. */
  maxHandleLength: 80,
  // None (Lax on plain http, where it cannot be Secure): the IdP posts the browser back cross-site.
  cookie: { name: SAML_BINDING_COOKIE, path: '/sso', sameSite: 'None' },
};

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

/** A fresh AuthnRequest ID: 160 random bits, unguessable so that no response can be prepared for it. */
export function newRequestId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

/** Writes the flow's row. A browser keeps its binding value across flows (two tabs both finish). */
export async function startSamlFlow(deps: Pick<Deps, 'config' | 'storage' | 'clock'>, presentedBinding: string | undefined, data: NewSamlFlow): Promise<StartedSamlFlow> {
  const requestId = newRequestId();
  const started = await startBrowserFlow(deps, SAML_FLOW, presentedBinding, { ...data, requestId });
  return { relayState: started.handle, requestId, bindingCookie: started.bindingCookie };
}

export type TakenSamlFlow = { ok: true; flow: SamlFlow } | { ok: false; reason: 'unknown' | 'wrong_browser' };

/** Finds and deletes the flow named by `relayState` if this browser started it and it has not expired. */
export async function takeSamlFlow(deps: Pick<Deps, 'storage' | 'clock'>, relayState: string | undefined, presentedBinding: string | undefined): Promise<TakenSamlFlow> {
  const taken = await takeBrowserFlow(deps, SAML_FLOW, relayState, presentedBinding);
  if (!taken.ok) return taken;
  const { row } = taken;
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
