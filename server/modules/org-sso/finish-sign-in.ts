/**
 * The end of every organization SSO sign-in, OIDC callback and SAML ACS alike, once the IdP's answer is
 * validated: the account found, linked or created by the one rule (sign-in.ts) in one transaction, then the
 * browser back to the application's vetted target with its state and no token
 * (docs/api-overview.md#authentication), or to the login UI's MFA step when the gate stops the sign-in.
 * Its mails and events are the endpoint's after-commit work, sent once the transaction committed; a refusal
 * is thrown as its page (accounts/upstream-sign-in.ts signInRefusal), so that nothing of it is committed or sent and its
 * afterRollback audit runs. Nothing the IdP sent is shown.
 */
import type { HandlerContext } from '../../ops/define.ts';
import type { EndpointAnswer } from '../../ops/endpoint.ts';
import { isUniqueViolation } from '../../storage/errors.ts';
import type { OrganizationRow } from '../organizations/index.ts';
import { SignInRefused, afterUpstreamSignIn, signInRefusal } from '../accounts/index.ts';
import { completeSsoSignIn, type SsoConnection, type SsoIdentity, type SsoSignInResult } from './sign-in.ts';

export interface VouchedSignIn {
  org: OrganizationRow;
  connection: SsoConnection;
  identity: SsoIdentity;
  redirectUri: string;
  appState: string;
  scope: string[];
}

export async function finishSsoSignIn(ctx: HandlerContext, signIn: VouchedSignIn): Promise<EndpointAnswer> {
  let result: SsoSignInResult;
  try {
    result = await ctx.em.transactional((em) =>
      completeSsoSignIn({ ...ctx, em }, { org: signIn.org, connection: signIn.connection, identity: signIn.identity, scope: signIn.scope }));
  } catch (err) {
    if (isUniqueViolation(err)) {
      // Two first sign-ins of one IdP subject at once: the second loses the race on the link's key.
      throw signInRefusal(new SignInRefused(409, 'Sign-in interrupted', ['This sign-in crossed another one for the same person. Start again from the application.']));
    }
    throw signInRefusal(err);
  }
  if (!result.gate) ctx.deps.metrics.login('success');
  return afterUpstreamSignIn(ctx.deps.config, result.gate, { redirectUri: signIn.redirectUri, appState: signIn.appState });
}
