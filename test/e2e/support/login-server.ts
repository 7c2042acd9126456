/**
 * The login UI journeys need the account flows that mail or text something: a server like the shared
 * fixture's (fixtures.ts: the built executable, SMTP and SMS sinks, the relying application, 'Acme Cloud',
 * no rate limit) with email verification, magic links and phone verification switched on (all off by
 * default; reference.md "Defaults"). Same `portcullis` fixture shape, so the journeys read the same.
 *
 *   import { test, expect } from './support/login-server.ts';
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePorts, requireExecutable, run, serverFlags, stop, waitFor200, SECRETS } from '../../sea/executable.ts';
import { startSmtpSink } from '../../support/smtp-sink.ts';
import { startSmsSink } from '../../support/sms-sink.ts';
import { startRelyingApp } from './relying-app.ts';
import { test as base, expect, type Portcullis } from './fixtures.ts';

/** The flags that turn on the mailed and texted flows the login UI offers. */
export const LOGIN_FLOW_FLAGS = [
  '--enable-email-verification=true',
  '--enable-magic-link-login=true',
  '--enable-phone-verification=true',
];

export const test = base.extend<object, { portcullis: Portcullis }>({
  portcullis: [
    async ({}, use) => {
      const executable = process.env.PORTCULLIS_E2E_EXECUTABLE || requireExecutable();
      const dir = mkdtempSync(join(tmpdir(), 'portcullis-e2e-login-'));
      const smtp = await startSmtpSink();
      const sms = await startSmsSink();
      const app = await startRelyingApp();
      const ports = await freePorts();
      const url = `http://127.0.0.1:${ports.http}`;
      app.setServerUrl(url);
      const flags = serverFlags(dir, ports, [
        ...smtp.flags(),
        '--twilio-api-url', sms.url,
        '--twilio-account-sid', 'AC-e2e',
        '--twilio-api-key', 'e2e-key',
        '--twilio-api-secret', 'e2e-secret',
        '--twilio-sender', '+15550000000',
        '--allowed-origins', `${url},${app.origin}`,
        '--organization-name', 'Acme Cloud',
        '--rate-limit-rps', '0',
        ...LOGIN_FLOW_FLAGS,
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
    },
    { scope: 'worker', timeout: 60_000 },
  ],
});

export { expect };
