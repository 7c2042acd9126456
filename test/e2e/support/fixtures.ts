/**
 * The Playwright fixture of every journey: one running dist/portcullis per worker (the built single
 * executable, as a person downloads it) on a temporary SQLite file, with a real SMTP sink and a Twilio-style
 * SMS sink on loopback, plus a tiny "relying application" on another loopback port that is allowed as a
 * redirect target. Tests use unique addresses (uniqueEmail) so that they do not depend on each other.
 *
 *   import { test, expect } from './support/fixtures.ts';
 *   test('…', async ({ page, portcullis }) => { await page.goto(`${portcullis.url}/app`); … });
 */
import { test as base, expect, type Page } from '@playwright/test';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, requireExecutable, run, serverFlags, stop, waitFor200, SECRETS } from '../../sea/executable.ts';
import { startSmtpSink, type SmtpSink, type ReceivedEmail } from '../../support/smtp-sink.ts';
import { startSmsSink, type SmsSink } from '../../support/sms-sink.ts';
import { startRelyingApp, type RelyingApp } from './relying-app.ts';

export const SCREENSHOT_DIR = join(import.meta.dirname, '..', '..', '..', '.tmp', 'screenshots');

export interface Portcullis {
  /** The server's base URL (= --url), e.g. http://127.0.0.1:41234. */
  url: string;
  adminSecret: string;
  clientId: string;
  smtp: SmtpSink;
  sms: SmsSink;
  /** An application on another loopback port, allowed as a redirect target (--allowed-origins). */
  app: RelyingApp;
  /** The first mail to `to` whose subject matches (received already or arriving within the timeout). */
  mailTo(to: string, subject?: RegExp, timeoutMs?: number): Promise<ReceivedEmail>;
  /** The server's output so far (for failure messages). */
  output(): string;
}

let counter = 0;
/** An address no other test uses. */
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** The first http(s) link of a mail's HTML or text part that starts with `prefix`. */
export function linkIn(mail: ReceivedEmail, prefix: string): string {
  const source = `${mail.html ?? ''}\n${mail.text ?? ''}`;
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}[^"'<>\\s]*`).exec(source);
  if (!match) throw new Error(`no link starting with ${prefix} in mail "${mail.subject}"`);
  return match[0].replace(/&amp;/g, '&');
}

/**
 * A full-page screenshot of a main screen, kept in .tmp/screenshots/<name>.png. Running transitions end
 * first: a dialog caught while it fades in shows the page through it (login-passkey-add once did). An animation
 * cancelled meanwhile (a notification or dialog that closed) rejects `finished`: it has ended too.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.evaluate(() => Promise.all(document.getAnimations().filter((animation) => animation.effect?.getTiming().iterations !== Infinity).map((animation) => animation.finished.catch(() => undefined))));
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
}

type WorkerFixture = (args: object, use: (value: Portcullis) => Promise<void>) => Promise<void>;

/**
 * The worker fixture body: a server with the shared flags plus `extraFlags` (they come last and win), for
 * suites that need more switched on (login-server.ts). `hostname` names the server in its --url and in the
 * browser: passkeys need `localhost`, because an IP address is never a WebAuthn RP ID (W3C WebAuthn Level 3
 * section 5.1.2; the server takes the RP ID from --url) while localhost is a secure context over http.
 */
export function portcullisFixture(extraFlags: readonly string[] = [], { hostname = '127.0.0.1' }: { hostname?: string } = {}): WorkerFixture {
  return async ({}, use) => {
    // A copy elsewhere can be tested while dist/ is being rebuilt (PORTCULLIS_E2E_EXECUTABLE=/tmp/x/portcullis).
    const executable = process.env.PORTCULLIS_E2E_EXECUTABLE || requireExecutable();
    const dir = mkdtempSync(join(tmpdir(), 'portcullis-e2e-'));
    const smtp = await startSmtpSink();
    const sms = await startSmsSink();
    const app = await startRelyingApp();
    const ports = await freePorts();
    const url = `http://${hostname}:${ports.http}`;
    app.setServerUrl(url);
    const flags = serverFlags(dir, ports, [
      '--url', url,
      ...smtp.flags(),
      '--twilio-api-url', sms.url,
      '--twilio-account-sid', 'AC-e2e',
      '--twilio-api-key', 'e2e-key',
      '--twilio-api-secret', 'e2e-secret',
      '--twilio-sender', '+15550000000',
      '--allowed-origins', `${url},${app.origin}`,
      '--organization-name', 'Acme Cloud',
      '--rate-limit-rps', '0',
      ...extraFlags,
    ]);
    const running = run(executable, flags, dir);
    await waitFor200(`${url}/readyz`, running, performance.now(), 30_000);
    const output = () => `${running.output().stdout}\n${running.output().stderr}`;
    await use({
      url,
      adminSecret: SECRETS.adminSecret,
      clientId: 'sea-client',
      smtp,
      sms,
      app,
      output,
      async mailTo(to, subject, timeoutMs = 15_000) {
        return smtp.waitFor((mail) => mail.envelope.to.includes(to) && (!subject || subject.test(mail.subject)), timeoutMs);
      },
    });
    await stop(running);
    await app.close();
    await sms.close();
    await smtp.close();
    rmSync(dir, { recursive: true, force: true });
  };
}

export const test = base.extend<object, { portcullis: Portcullis }>({
  portcullis: [portcullisFixture(), { scope: 'worker', timeout: 60_000 }],
});

export { expect };
