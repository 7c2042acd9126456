/**
 * Where a browser goes when a sign-in it started by a redirect (an emailed link, a social provider) is
 * stopped by the MFA gate (docs/api-overview.md#states-and-transitions: the token withheld while a challenge or an offer is
 * pending): the login UI's MFA step, told the stage and the methods by the same facts the gate's flags
 * carry in an AuthResponse. None of them is secret; the HttpOnly `mfa` cookie is what proves the first factor.
 */
import type { Config } from '../../config/flags.ts';
import type { Static } from '../../ops/schema.ts';
import type { AuthResponse } from './accounts.schema.ts';
import { publicBaseUrl } from '../email/index.ts';

type Answer = Static<typeof AuthResponse>;

const CHALLENGE_FLAGS: ReadonlyArray<[keyof Answer, string]> = [
  ['should_show_totp_screen', 'totp'],
  ['should_offer_webauthn_mfa_verify', 'webauthn'],
  ['should_show_email_otp_screen', 'email_otp'],
  ['should_show_mobile_otp_screen', 'sms_otp'],
];

const OFFER_FLAGS: ReadonlyArray<[keyof Answer, string]> = [
  ['should_offer_webauthn_mfa_setup', 'webauthn'],
  ['should_offer_email_otp_mfa_setup', 'email_otp'],
  ['should_offer_sms_otp_mfa_setup', 'sms_otp'],
];

const namesOf = (answer: Answer, flags: ReadonlyArray<[keyof Answer, string]>) => flags.filter(([flag]) => answer[flag] === true).map(([, name]) => name);

/**
 * An offer carries `should_offer_*_setup`, or, for the authenticator app, `should_show_totp_screen` with a
 * new secret to enrol (accounts/mfa-gate.ts); a challenge carries only the `should_show_*` flags.
 */
function isOffer(answer: Answer): boolean {
  return namesOf(answer, OFFER_FLAGS).length > 0 || Boolean(answer.authenticator_secret);
}

function offeredMethods(answer: Answer): string[] {
  return [...(answer.authenticator_secret ? ['totp'] : []), ...namesOf(answer, OFFER_FLAGS)];
}

/** Whether the answer is the gate's (a challenge or an offer) rather than a completed sign-in. */
export function stoppedAtGate(answer: Answer): boolean {
  return !answer.access_token && (namesOf(answer, CHALLENGE_FLAGS).length > 0 || isOffer(answer));
}

/** The login UI's MFA step for a stopped sign-in, continuing afterwards to `redirectUri` with `state`. */
export function mfaStepUrl(config: Pick<Config, 'url'>, answer: Answer, roundTrip: { redirectUri?: string; state?: string }): string {
  const offer = isOffer(answer);
  const url = new URL(`${publicBaseUrl(config)}/app/mfa`);
  url.searchParams.set('step', offer ? 'offer' : 'verify');
  url.searchParams.set('methods', (offer ? offeredMethods(answer) : namesOf(answer, CHALLENGE_FLAGS)).join(','));
  if (roundTrip.redirectUri) url.searchParams.set('redirect_uri', roundTrip.redirectUri);
  if (roundTrip.state) url.searchParams.set('state', roundTrip.state);
  return url.toString();
}
