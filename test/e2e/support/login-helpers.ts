/**
 * Helpers of the login UI journeys: unique phone numbers, the code texted to a number (from the SMS sink),
 * and an account created and verified over the public API (the precondition of journeys that are not
 * about signup).
 */
import { expect, type Page } from '@playwright/test';
import type { Portcullis } from './fixtures.ts';
import { linkIn } from './fixtures.ts';

/** A password that meets the strong policy (upper, lower, digit, special; docs/configuration.md#defaults). */
export const STRONG_PASSWORD = 'Sturdy-Gate-42';

let phoneCounter = 0;
/** A +1 555 number no other test uses (555 numbers are reserved for fiction). */
export function uniquePhone(): string {
  phoneCounter += 1;
  const digits = `${Date.now() % 100_000}${phoneCounter}`.padStart(7, '0').slice(-7);
  return `+1555${digits}`;
}

/** The six-digit code of the newest text to `phone`, waiting for it to arrive. */
export async function codeTextedTo(portcullis: Portcullis, phone: string, after = 0, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const texts = portcullis.sms.requests.slice(after).filter((request) => request.form.To === phone);
    const code = /\b(\d{6})\b/.exec(texts.at(-1)?.form.Body ?? '')?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no code texted to ${phone} within ${timeoutMs} ms\n${portcullis.output().slice(-2000)}`);
}

async function graphql(portcullis: Portcullis, query: string, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  const response = await fetch(`${portcullis.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: portcullis.url },
    body: JSON.stringify({ query, variables }),
  });
  const answer = (await response.json()) as { data?: Record<string, unknown>; errors?: { message: string }[] };
  if (answer.errors?.length) throw new Error(answer.errors[0]!.message);
  return answer.data!;
}

/** Signs up over GraphQL and follows the emailed verification link, so the account can sign in. */
export async function createVerifiedAccount(portcullis: Portcullis, email: string, password = STRONG_PASSWORD): Promise<void> {
  await graphql(portcullis, 'mutation($p: SignUpRequest!) { signup(params: $p) { message } }', {
    p: { email, password, confirm_password: password },
  });
  const mail = await portcullis.mailTo(email, /Verify your email/);
  const verify = await fetch(linkIn(mail, `${portcullis.url}/verify_email`), { redirect: 'manual' });
  expect(verify.status, 'the verification link redirects once it has verified').toBe(303);
}

/** Signs up through the signup page with a strong password and waits for the signed-in page. */
export async function signUpInBrowser(page: Page, baseUrl: string, email: string): Promise<void> {
  await page.goto(`${baseUrl}/app/signup`);
  await page.getByLabel('Email or phone number').fill(email);
  await page.getByLabel(/^Password/).fill(STRONG_PASSWORD);
  await page.getByLabel('Confirm password').fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('You are signed in');
}

/** Fills the sign-in form and submits it. */
export async function signIn(page: Page, identifier: string, password: string): Promise<void> {
  await page.getByLabel(/^Email/).fill(identifier);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The page does not scroll sideways (WCAG 1.4.10 reflow at 320-375 px). */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
}
