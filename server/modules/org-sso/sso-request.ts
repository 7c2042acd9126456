/**
 * What the organization SSO endpoints share: the bound on an organization's name in a path, and the page of
 * a flow whose connection changed while the browser was away.
 */
import type { EndpointAnswer } from '../../ops/endpoint.ts';
import { signInPage } from '../../ops/sign-in-pages.ts';

/** Longer than an organization's name may be: such a name is not looked up. */
export const MAX_ORG_NAME = 63;

/** The page of a flow whose connection or organization was turned off or changed since its start. */
export function changedWhileSigningIn(): EndpointAnswer {
  return signInPage(403, 'Organization sign-in unavailable', ['This organization\'s single sign-on was turned off or changed while you were signing in. Start again from the application.']);
}
