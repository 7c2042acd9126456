/**
 * The server-side state of one social sign-in (RFC 6749 section 10.12 CSRF defence; RFC 9700 section 4.7.1:
 * state bound to the user agent, PKCE S256 per RFC 7636; OpenID Connect Core 3.1.2.1 nonce). The random
 * `state` sent upstream names the row; the row is bound to the browser by a short-lived HttpOnly SameSite=Lax
 * cookie, so a callback URL replayed in another browser (login CSRF, a leaked URL) finds no match. Rows live
 * ten minutes and are used once (sessions/browser-flow.ts keeps these rules for every redirect sign-in).
 */
import type { Deps } from '../../kernel/deps.ts';
import { startCodeFlow, takeCodeFlow, type BrowserFlowKind, type CodeFlowSecrets, type StartedCodeFlow } from '../sessions/index.ts';
import { SocialLoginState, type SocialLoginStateRow } from './social.entities.ts';

export const LOGIN_STATE_SECONDS = 10 * 60;
export const BINDING_COOKIE = 'portcullis_social';

const SOCIAL_FLOW: BrowserFlowKind<SocialLoginStateRow> = {
  entity: SocialLoginState,
  lifetimeSeconds: LOGIN_STATE_SECONDS,
  maxHandleLength: 128,
  // Lax, not the session cookies' None: the callback is a top-level GET navigation from the upstream, which
  // Lax cookies accompany, while cross-site subrequests and POSTs do not carry it (RFC 6265bis 8.8).
  cookie: { name: BINDING_COOKIE, path: '/', sameSite: 'Lax' },
};

export interface NewLoginState {
  provider: string;
  redirectUri: string;
  appState: string;
  roles: string[];
  scope: string[];
}

export type StartedLoginState = StartedCodeFlow;

export interface LoginState extends NewLoginState, CodeFlowSecrets {}

/** Writes the state row. A browser keeps its binding value across flows (two tabs signing in at once both finish). */
export function startLoginState(deps: Pick<Deps, 'config' | 'storage' | 'sealer' | 'clock'>, presentedBinding: string | undefined, data: NewLoginState): Promise<StartedLoginState> {
  return startCodeFlow(deps, SOCIAL_FLOW, presentedBinding, {
    provider: data.provider,
    redirectUri: data.redirectUri,
    appState: data.appState,
    roles: data.roles,
    scope: data.scope,
  });
}

export type TakeResult =
  | { ok: true; login: LoginState }
  | { ok: false; reason: 'unknown' | 'wrong_browser' };

/** Finds and deletes the state named by `state` for `provider`, if this browser started it and it has not expired. */
export async function takeLoginState(
  deps: Pick<Deps, 'storage' | 'sealer' | 'clock'>,
  provider: string,
  state: string | undefined,
  presentedBinding: string | undefined,
): Promise<TakeResult> {
  const taken = await takeCodeFlow(deps, SOCIAL_FLOW, state, presentedBinding, (row) => row.provider === provider);
  if (!taken.ok) return taken;
  const { row, secrets } = taken;
  return {
    ok: true,
    login: { provider: row.provider, redirectUri: row.redirectUri, appState: row.appState, roles: row.roles, scope: row.scope, ...secrets },
  };
}
