/**
 * The server-side state of one organization SSO sign-in, kept by the rules every redirect sign-in shares
 * (sessions/browser-flow.ts): RFC 6749 section 10.12 CSRF defence with the state bound to the user agent
 * (RFC 9700 section 4.7.1), PKCE S256 (RFC 7636), the OpenID Connect Core 3.1.2.1 nonce. The row is named
 * by the digest of the random `state` sent to the IdP, bound to the browser by the digest of a short-lived
 * HttpOnly SameSite=Lax cookie, lives ten minutes and is used once.
 */
import type { Deps } from '../../kernel/deps.ts';
import { startCodeFlow, takeCodeFlow, type BrowserFlowKind, type CodeFlowSecrets, type StartedCodeFlow } from '../sessions/index.ts';
import { OrgSsoLoginState, type OrgSsoLoginStateRow } from './org-sso.entities.ts';

export const SSO_STATE_SECONDS = 10 * 60;
export const SSO_BINDING_COOKIE = 'portcullis_sso';

const OIDC_FLOW: BrowserFlowKind<OrgSsoLoginStateRow> = {
  entity: OrgSsoLoginState,
  lifetimeSeconds: SSO_STATE_SECONDS,
  maxHandleLength: 128,
  // Lax: the callback is a top-level GET navigation from the IdP, which Lax cookies accompany, while
  // cross-site subrequests and POSTs do not carry it (RFC 6265bis 8.8). Path /sso: no other route needs it.
  cookie: { name: SSO_BINDING_COOKIE, path: '/sso', sameSite: 'Lax' },
};

export interface NewSsoFlow {
  orgId: string;
  connectionId: string;
  issuer: string;
  redirectUri: string;
  appState: string;
  scope: string[];
}

export type StartedSsoFlow = StartedCodeFlow;

export interface SsoFlow extends NewSsoFlow, CodeFlowSecrets {}

/** Writes the flow's row. A browser keeps its binding value across flows (two tabs both finish). */
export function startSsoFlow(deps: Pick<Deps, 'config' | 'storage' | 'sealer' | 'clock'>, presentedBinding: string | undefined, data: NewSsoFlow): Promise<StartedSsoFlow> {
  return startCodeFlow(deps, OIDC_FLOW, presentedBinding, {
    orgId: data.orgId,
    connectionId: data.connectionId,
    issuer: data.issuer,
    redirectUri: data.redirectUri,
    appState: data.appState,
    scope: data.scope,
  });
}

export type TakenSsoFlow = { ok: true; flow: SsoFlow } | { ok: false; reason: 'unknown' | 'wrong_browser' };

/** Finds and deletes the flow named by `state` if this browser started it and it has not expired. */
export async function takeSsoFlow(deps: Pick<Deps, 'storage' | 'sealer' | 'clock'>, state: string | undefined, presentedBinding: string | undefined): Promise<TakenSsoFlow> {
  const taken = await takeCodeFlow(deps, OIDC_FLOW, state, presentedBinding);
  if (!taken.ok) return taken;
  const { row, secrets } = taken;
  return {
    ok: true,
    flow: {
      orgId: row.orgId,
      connectionId: row.connectionId,
      issuer: row.issuer,
      redirectUri: row.redirectUri,
      appState: row.appState,
      scope: row.scope,
      ...secrets,
    },
  };
}
