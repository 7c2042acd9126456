/**
 * The six email events of docs/events.md: each has a built-in template, and each is also the
 * `identifier` of a verification request.
 */
export const EMAIL_EVENTS = [
  'basic_auth_signup',
  'magic_link_login',
  'update_email',
  'forgot_password',
  'invite_member',
  'verify_otp',
] as const;

export type EmailEvent = (typeof EMAIL_EVENTS)[number];

export function isEmailEvent(value: string): value is EmailEvent {
  return (EMAIL_EVENTS as readonly string[]).includes(value);
}
