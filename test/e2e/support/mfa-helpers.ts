/**
 * Helpers of the second-factor journeys: an account made in the browser (so the page holds its session),
 * calls of the public GraphQL API with that page's cookies (for preconditions that are not the journey's
 * subject, such as a phone number on the profile or an authenticator app set up in advance), the code of a
 * code mail, and authenticator-app codes (RFC 6238) from a secret.
 */
import { expect, type Page } from '@playwright/test';
import type { ReceivedEmail } from '../../support/smtp-sink.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../../server/modules/mfa/totp.ts';
import type { Portcullis } from './fixtures.ts';
import { STRONG_PASSWORD } from './login-helpers.ts';

/** Signs up on the login UI's signup page with an email or a phone number and lands signed in. */
export async function signUpInBrowser(page: Page, portcullis: Portcullis, identifier: string): Promise<void> {
  await page.goto(`${portcullis.url}/app/signup`);
  await page.getByLabel('Email or phone number').fill(identifier);
  await page.getByLabel(/^Password/).fill(STRONG_PASSWORD);
  await page.getByLabel('Confirm password').fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** A GraphQL call with the page's cookies (its session or its mfa cookie); throws on an error. */
export async function graphqlAsPage(page: Page, portcullis: Portcullis, query: string, variables: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const response = await page.request.post(`${portcullis.url}/graphql`, { headers: { origin: portcullis.url }, data: { query, variables } });
  const answer = (await response.json()) as { data?: Record<string, any>; errors?: { message: string }[] };
  if (answer.errors?.length) throw new Error(answer.errors[0]!.message);
  return answer.data!;
}

/** Sets up an authenticator app for the page's signed-in user over the API; answers its secret. */
export async function enrolTotpAsPage(page: Page, portcullis: Portcullis): Promise<string> {
  const setup = await graphqlAsPage(page, portcullis, 'mutation { totp_mfa_setup(params: {}) { authenticator_secret } }');
  const secret = setup.totp_mfa_setup.authenticator_secret as string;
  await graphqlAsPage(page, portcullis, 'mutation($p: VerifyOTPRequest!) { verify_otp(params: $p) { message } }', { p: { otp: totpCode(secret, new Date()), is_totp: true } });
  return secret;
}

/**
 * A code the server takes once the enrolment's own code is spent: the next step's (one step of skew is
 * accepted, and a step at or before the last used one is refused as a replay).
 */
export function nextStepCode(secret: string): string {
  return totpCode(secret, new Date(Date.now() + TOTP_PERIOD_SECONDS * 1000));
}

/** The six-digit code of the first code mail to `to` that is not one of `seen`. */
export async function newCodeMailedTo(portcullis: Portcullis, to: string, seen: Set<ReceivedEmail>): Promise<string> {
  const mail = await portcullis.smtp.waitFor((m) => !seen.has(m) && m.envelope.to.includes(to) && /verification code/i.test(m.subject), 15_000);
  seen.add(mail);
  const code = /\b(\d{6})\b/.exec(`${mail.text ?? ''}\n${mail.html ?? ''}`)?.[1];
  if (!code) throw new Error(`no six-digit code in "${mail.subject}"`);
  return code;
}

/** Signs out from the signed-in page and waits for the sign-in form. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Acme Cloud');
}
