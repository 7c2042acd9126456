/**
 * totp_mfa_setup (specification part 4.1 and part 3 "TOTP enrollment"): a signed-in user starts an
 * authenticator-app factor. The answer carries the new secret, its QR image and ten recovery codes, each
 * shown this once (only the sealed secret and the codes' digests are stored, modules/mfa); nothing is sent
 * anywhere. The factor counts once verify_otp with `is_totp` accepts a first code from the app, and from then
 * on every password login of the user asks for a code (accounts/mfa-gate.ts).
 */
import { defineOperation } from '../../ops/define.ts';
import { s, type Static } from '../../ops/schema.ts';
import { AppError } from '../../kernel/errors.ts';
import { toPublicUser } from '../users/user.schema.ts';
import { beginTotpEnrolment, totpEnabled, totpUri } from '../mfa/index.ts';
import { AuthResponse } from './accounts.schema.ts';
import { callerUser } from './profile.ops.ts';

const optionalString = () => s.optional(s.string());

/** reference.md: the MFA setup operations take `email?`, `phone_number?` (`state?`); a signed-in caller is itself. */
export const MfaSetupRequest = s.object('MfaSetupRequest', {
  email: optionalString(),
  phone_number: optionalString(),
  state: optionalString(),
});

export const totpMfaSetupOp = defineOperation({
  name: 'totp_mfa_setup',
  admin: false,
  kind: 'mutation',
  description: 'Starts an authenticator-app (TOTP) factor: a new secret, its QR image and recovery codes; completed by verify_otp with is_totp',
  input: MfaSetupRequest,
  output: AuthResponse,
  auth: 'user',
  handler: async (_input: Static<typeof MfaSetupRequest>, ctx): Promise<Static<typeof AuthResponse>> => {
    const { config } = ctx.deps;
    if (!totpEnabled(config)) throw AppError.precondition('authenticator apps (TOTP) are disabled for this instance');
    const user = await callerUser(ctx);
    const enrolment = await beginTotpEnrolment(ctx.em, ctx.deps, user.id);
    const account = user.email ?? user.phoneNumber ?? user.id;
    // qrcode loads with the first enrolment, not at start (most servers draw few QR codes).
    const { totpQrDataUrl } = await import('../mfa/totp-qr.ts');
    return {
      message: 'Scan the QR code with your authenticator app, then confirm with a code from it',
      authenticator_scanner_image: await totpQrDataUrl(totpUri(enrolment.secret, config.organizationName, account)),
      authenticator_secret: enrolment.secret,
      authenticator_recovery_codes: enrolment.recoveryCodes,
      user: toPublicUser(user),
    };
  },
});

export const mfaSetupOperations = [totpMfaSetupOp];
