/** Account flows (docs/operations.md): the public account operations and the super-admin account operations. */
import { signupOp } from './signup.op.ts';
import { sessionOperations } from './session.ops.ts';
import { profileOperations } from './profile.ops.ts';
import { mySessionOperations } from './my-sessions.ops.ts';
import { emailLinkOperations } from './email-link.ops.ts';
import { passwordResetOperations } from './password-reset.ops.ts';
import { tokenOperations } from './token.ops.ts';
import { otpOperations } from './otp.ops.ts';
import { mfaSetupOperations } from './mfa-setup.ops.ts';
import { mfaOfferOperations } from './mfa-offer.ops.ts';
import { adminAccessOperations } from './admin-access.ops.ts';
import { initialPasswordOperations } from './initial-password.ops.ts';
import { importUserOperations } from './import/import-users.ops.ts';
import { ImportedHashKey } from './import/imported-hash-key.entity.ts';
import { personalDataOperations } from './personal-data.ops.ts';
import { defineModule, defineWorker } from '../manifest.ts';
import { createMessageOutbox, type MessageOutbox, type OutboxOptions } from '../messages/index.ts';
import { deliverMessage } from './message-delivery.ts';
import { LOGINS_METRIC } from './login-metric.ts';

export const accountOperations = [
  signupOp,
  ...sessionOperations,
  ...profileOperations,
  ...emailLinkOperations,
  ...passwordResetOperations,
  ...tokenOperations,
  ...otpOperations,
  ...mfaSetupOperations,
  ...mfaOfferOperations,
  ...initialPasswordOperations,
  ...mySessionOperations,
  ...personalDataOperations,
];

export { adminAccessOperations };
export { importUsersOp, runImport, STREAMED_LINES, BATCH_SIZE, type StreamedLines, type ImportUsersInput } from './import/import-users.ops.ts';
export { linesOfStream, type ImportLine, type StreamEnd } from './import/import-lines.ts';
export { MAX_LINE_BYTES } from './import/import-line.ts';
export { LOGIN_STEPS, runLogin, type LoginStep, type LoginState } from './login-flow.ts';
export { deliverMessage } from './message-delivery.ts';
export { takeOverUnprovenAccount, onAccountTakeover, type TakeoverContext, type TakeoverBy } from './clean-takeover.ts';
// What the sign-in flows of the modules above (social, org-sso, webauthn) build on.
export { AuthResponse } from './accounts.schema.ts';
export { createAccount } from './create-account.ts';
export { resolveFederatedAccount, type UpstreamLinks } from './federated-account.ts';
export { SignInRefused } from './sign-in-refused.ts';
export { signIn } from './sign-in-policy.ts';
export { finishGatedLogin } from './mfa-complete.ts';
export { mfaStepUrl, stoppedAtGate } from './mfa-step-url.ts';
export {
  afterUpstreamSignIn, flowNotUsable, redirectToApplication, signInParameter, signInRedirect, signInRefusal,
} from './upstream-sign-in.ts';
export { requireRecentAuthentication } from './step-up.ts';
export { onPersonalDataExport, onAccountErased, type PersonalDataSections } from './personal-data-hooks.ts';
export { callerUser } from './profile.ops.ts';
// What the HTTP transport's redirects, link landing and /validate use.
export { isAllowedRedirect, boundRedirectUri } from './redirect-uri.ts';
export { verifyEmailOp } from './email-link.ops.ts';
export { validatePlainTokenInMemory } from './token.ops.ts';

export { LOGINS_METRIC } from './login-metric.ts';

export const accountsModule = defineModule({
  name: 'accounts',
  operations: accountOperations,
  // The message outbox (modules/messages) is run from here: its rows and retries are messages', but deciding
  // what an account is sent is this layer's (message-delivery.ts), and messages sits below accounts
  // (docs/architecture.md#module-layers). Requests wake it through Deps.outbox after their commit.
  workers: [
    defineWorker<MessageOutbox, OutboxOptions>({
      name: 'outbox',
      depsKey: 'outbox',
      create: (options) => createMessageOutbox(deliverMessage, options),
    }),
  ],
  // complete-login.ts, sign-in-policy.ts, create-account.ts, profile.ops.ts, clean-takeover.ts (docs/events.md).
  events: ['user.login', 'user.signup', 'user.created', 'user.deactivated', 'user.taken_over'],
  metrics: [LOGINS_METRIC],
});
/**
 * The super-admin account operations as a manifest of their own: modules/index.ts lists it after the admin
 * and user-admin modules, the place these operations have always had in the registry, so the REST route
 * and GraphQL field order stay as they were.
 */
export const accountsAdminModule = defineModule({
  name: 'accounts-admin',
  // The imported users' hash parameters (import/imported-hash-key.entity.ts), read at their first sign-in.
  entities: [ImportedHashKey],
  operations: [...adminAccessOperations, ...importUserOperations],
  // admin-access.ops.ts (docs/events.md).
  events: ['user.deleted', 'user.access_revoked', 'user.access_enabled'],
});
