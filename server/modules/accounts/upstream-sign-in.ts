/**
 * What the browser sign-ins through an upstream (social providers, organization SSO) answer besides the
 * pages of ops/sign-in-pages.ts: a redirect to the application's vetted target or to the login UI's MFA
 * step, the page of a flow this browser cannot use, and how a refusal of the sign-in's transaction is
 * thrown. Here, beside the sign-in rule and its SignInRefused, since the modules above (social, org-sso)
 * may not import each other (docs/architecture.md#module-layers).
 */
import { AppError, HTTP_ERROR_MAP } from '../../kernel/errors.ts';
import { PageRefusal, type EndpointAnswer, type MessagePage } from '../../ops/endpoint.ts';
import { signInPage } from '../../ops/sign-in-pages.ts';
import type { Static } from '../../ops/schema.ts';
import type { Config } from '../../config/flags.ts';
import type { AuthResponse } from './accounts.schema.ts';
import { SignInRefused } from './sign-in-refused.ts';
import { mfaStepUrl } from './mfa-step-url.ts';

/** The URL of a redirect may carry the flow's state: it must not travel on as a Referer, nor be cached. */
const REDIRECT_HEADERS = { 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' } as const;

/** A parameter of a sign-in request as text, non-empty; a repeated one (a list) or any other value reads as absent. */
export function signInParameter(params: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A flow's state this browser cannot use (the login-state.ts of social and org-sso): unknown, used, expired or another browser's. */
export function flowNotUsable(reason: string): EndpointAnswer {
  return signInPage(400, 'This sign-in cannot be completed', [
    reason === 'wrong_browser'
      ? 'This sign-in was started in another browser. Start again from the application in this browser.'
      : 'This sign-in is unknown, was already used or has expired. Start again from the application.',
  ]);
}

/** A redirect to the upstream (its authorization endpoint or SSO service) or to the login UI's MFA step. */
export function signInRedirect(location: string): EndpointAnswer {
  return { kind: 'redirect', location, status: 302, headers: REDIRECT_HEADERS };
}

/**
 * A redirect to a target that passed isAllowedRedirect, with our parameters set over any of the same name
 * (an application's own `state` or `error` in its URL cannot masquerade as ours). No token ever goes in it:
 * the session travels in its cookies (docs/api-overview.md#authentication).
 */
export function redirectToApplication(target: string, params: Readonly<Record<string, string>>): EndpointAnswer {
  const url = new URL(target);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return signInRedirect(url.toString());
}

/**
 * Where a completed upstream sign-in sends the browser: to the login UI's MFA step when the gate stopped it
 * (the `mfa` cookie is in the context's effects), else back to the application with its state.
 */
export function afterUpstreamSignIn(config: Pick<Config, 'url'>, gate: Static<typeof AuthResponse> | undefined, app: { redirectUri: string; appState: string }): EndpointAnswer {
  if (gate) return signInRedirect(mfaStepUrl(config, gate, { redirectUri: app.redirectUri, state: app.appState }));
  return redirectToApplication(app.redirectUri, { state: app.appState });
}

/** The sign-in page of ops/sign-in-pages.ts as the page of a thrown refusal. */
function page(status: number, heading: string, paragraphs: readonly string[]): MessagePage & { readonly status: number } {
  const answer = signInPage(status, heading, paragraphs);
  if (answer.kind !== 'page') throw new Error('signInPage answers a page');
  return { ...answer, status };
}

/**
 * A failure of the sign-in's transaction as the refusal the endpoint throws, so that the unit of work rolls
 * back and drops its after-commit mails and events: a SignInRefused as its own page, any other refusal as
 * "Sign-in failed" with its message and the status of its kind, keeping its afterRollback (the audit entry of
 * a refused sign-in). Anything unexpected is left as it is (a 500 naming the request id).
 */
export function signInRefusal(err: unknown): unknown {
  if (err instanceof SignInRefused) return new PageRefusal(page(err.status, err.heading, err.paragraphs));
  if (err instanceof AppError && err.kind !== 'internal' && !(err instanceof PageRefusal)) {
    return new PageRefusal(page(HTTP_ERROR_MAP[err.kind].status, 'Sign-in failed', [`${err.message}.`]), err.afterRollback);
  }
  return err;
}
