/**
 * A new authenticator-app enrolment as an AuthResponse (the AuthResponse of docs/api-overview.md#resources-and-fields `authenticator_scanner_image`,
 * a base64 PNG data URL of the otpauth URI, `authenticator_secret`, `authenticator_recovery_codes`, each shown
 * this once; only the sealed secret and the codes' digests are stored, modules/mfa). Answered by
 * totp_mfa_setup and by the MFA gate's first-time offer, where the released line's SDK screens expect the
 * enrolment inside the login answer.
 */
import type { Static } from '../../ops/schema.ts';
import type { HandlerContext } from '../../ops/define.ts';
import type { UserRow } from '../users/index.ts';
import { beginTotpEnrolment, totpQrImage, totpUri } from '../mfa/index.ts';
import type { AuthResponse } from './accounts.schema.ts';

export type TotpEnrolmentFields = Pick<Static<typeof AuthResponse>, 'authenticator_scanner_image' | 'authenticator_secret' | 'authenticator_recovery_codes'>;

export async function newTotpEnrolment(ctx: HandlerContext, user: UserRow): Promise<TotpEnrolmentFields> {
  const { config } = ctx.deps;
  const enrolment = await beginTotpEnrolment(ctx.em, ctx.deps, user.id);
  const account = user.email ?? user.phoneNumber ?? user.id;
  return {
    authenticator_scanner_image: await totpQrImage(totpUri(enrolment.secret, config.organizationName, account)),
    authenticator_secret: enrolment.secret,
    authenticator_recovery_codes: enrolment.recoveryCodes,
  };
}
