/**
 * The authenticator-app enrolment a first-time offer carries (the server answers should_show_totp_screen
 * with authenticator_secret, authenticator_scanner_image and authenticator_recovery_codes, as the released
 * SDK's screens expect; the AuthResponse of docs/api-overview.md#resources-and-fields). It is kept in this page's memory only, never in the
 * router's history state with the rest of the step: history state is written to the browser's session
 * store, and the secret must not outlive the page. After a reload, or when /mfa was opened by a redirect
 * (an emailed link, a social callback) with no secret in its URL, the screen asks totp_mfa_setup with the
 * offer's cookie for a new one, which replaces the first.
 */
import type { TotpEnrolment } from '../api/mfa-operations.ts';
import type { AuthAnswer } from '../api/types.ts';

let kept: TotpEnrolment | undefined;

/** Keeps the enrolment of an offer's answer, or forgets the one before when the answer has none. */
export function keepOfferEnrolment(answer: AuthAnswer): void {
  const { authenticator_secret: secret, authenticator_scanner_image: image, authenticator_recovery_codes: codes } = answer;
  kept = secret && image && codes ? { message: answer.message, authenticator_secret: secret, authenticator_scanner_image: image, authenticator_recovery_codes: codes } : undefined;
}

/** The enrolment of the offer this page was answered, if any. */
export function offerEnrolment(): TotpEnrolment | undefined {
  return kept;
}
