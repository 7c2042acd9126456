/**
 * Email over real SMTP (docs/events.md): each of the six event emails goes through a local SMTP server
 * (test/support/smtp-sink.ts), and the link read from the received message lies under --url and carries
 * the caller's redirect_uri. Also: not configured, authentication, STARTTLS with a self-signed certificate,
 * and what reaches the log when delivery fails.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSmtpSink, firstLink, hrefsOf, SINK_SENDER, type SmtpSink } from '../support/smtp-sink.ts';
import { AppError } from '../../server/kernel/errors.ts';
import {
  EMAIL_EVENTS,
  emailLinkFor,
  sendTemplatedEmail,
  createSmtpMailer,
  isEmailConfigured,
  type EmailEvent,
} from '../../server/modules/email/index.ts';
import { configWith, capturingLogger } from './config.ts';

const URL_FLAG = 'https://id.example.com/auth';
const REDIRECT = 'https://app.example.com/after?step=verified';
const user = { id: 'u-1', email: 'ann@example.com', given_name: 'Ann <script>', family_name: 'Lee', roles: ['user'] };

function isAppError(kind: AppError['kind'], message?: string) {
  return (err: unknown) => err instanceof AppError && err.kind === kind && (message === undefined || err.message === message);
}

describe('templated email over a real SMTP server', () => {
  let sink: SmtpSink;
  before(async () => {
    sink = await startSmtpSink();
  });
  after(() => sink.close());

  for (const event of EMAIL_EVENTS) {
    test(`${event}: delivered, with the link or code under --url`, async () => {
      const config = configWith([
        '--url', URL_FLAG,
        '--organization-name', 'Acme & Sons',
        '--organization-logo', 'https://cdn.example.com/logo.png',
        ...sink.flags(),
      ]);
      const to = `${event}@example.com`;
      const token = `token-for-${event}`;
      const url = event === 'verify_otp' ? undefined : emailLinkFor(config, event, { token, redirectUri: REDIRECT });
      await sendTemplatedEmail({ config, logger: capturingLogger().logger }, { event, to, user, url, otp: event === 'verify_otp' ? '042917' : undefined });

      const message = await sink.waitFor((m) => m.envelope.to.includes(to));
      assert.equal(message.envelope.from, SINK_SENDER);
      assert.match(message.headers.from ?? '', /Portcullis <noreply@portcullis\.test>/);
      assert.ok(message.subject.includes('Acme & Sons'), `subject "${message.subject}" names the organization`);
      assert.ok(message.text, 'a text part');
      assert.ok(message.html, 'an HTML part');
      // The user's name is data, never markup.
      assert.ok(!message.html!.includes('<script>'), 'user input is escaped in HTML');
      assert.ok(message.html!.includes('Acme &amp; Sons'));
      assert.ok(message.html!.includes('src="https://cdn.example.com/logo.png"'), 'the logo is shown');

      if (event === 'verify_otp') {
        assert.ok(message.text!.includes('042917'));
        assert.ok(message.html!.includes('042917'));
        assert.equal(firstLink(message.text), undefined, 'the code email carries no link');
        return;
      }
      const link = firstLink(message.text);
      assert.ok(link, 'a link in the text part');
      assert.ok(link.startsWith(`${URL_FLAG}/`), `${link} starts with --url`);
      const parsed = new URL(link);
      assert.equal(parsed.searchParams.get('token'), token);
      assert.equal(parsed.searchParams.get('redirect_uri'), REDIRECT);
      assert.equal(parsed.pathname, event === 'forgot_password' ? '/auth/app/reset-password' : '/auth/verify_email');
      // The HTML button and the copyable link are the same link.
      assert.deepEqual(hrefsOf(message.html), [link, link]);
    });
  }

  test('every event has a distinct subject', async () => {
    const subjects = new Set(
      EMAIL_EVENTS.map((event) => sink.messages.find((m) => m.envelope.to.includes(`${event}@example.com`))?.subject),
    );
    assert.equal(subjects.size, EMAIL_EVENTS.length);
  });

  test('without a logo the HTML has no image', async () => {
    const config = configWith([...sink.flags()]);
    await sendTemplatedEmail({ config, logger: capturingLogger().logger }, {
      event: 'magic_link_login', to: 'nologo@example.com', user, url: 'http://127.0.0.1:8080/verify_email?token=t',
    });
    const message = await sink.waitFor((m) => m.envelope.to.includes('nologo@example.com'));
    assert.ok(!message.html!.includes('<img'));
  });

  test('a missing link or code is a wiring error, not a blank email', async () => {
    const config = configWith([...sink.flags()]);
    const deps = { config, logger: capturingLogger().logger };
    await assert.rejects(sendTemplatedEmail(deps, { event: 'forgot_password', to: 'x@example.com', user }), /needs a url/);
    await assert.rejects(sendTemplatedEmail(deps, { event: 'verify_otp', to: 'x@example.com', user }), /needs an otp/);
    await assert.rejects(sendTemplatedEmail(deps, { event: 'nope' as EmailEvent, to: 'x@example.com', user, url: 'http://x' }), /unknown email event/);
  });
});

describe('email configuration', () => {
  test('without --smtp-host sending fails with a clear failed_precondition', async () => {
    const config = configWith([]);
    assert.equal(isEmailConfigured(config), false);
    await assert.rejects(
      sendTemplatedEmail({ config, logger: capturingLogger().logger }, { event: 'basic_auth_signup', to: 'a@example.com', user, url: 'http://x/verify_email' }),
      isAppError('failed_precondition', 'email is not configured: set --smtp-host'),
    );
  });

  test('without a sender address sending fails naming the flag', async () => {
    const config = configWith(['--smtp-host', '127.0.0.1']);
    await assert.rejects(
      createSmtpMailer(config, capturingLogger().logger).send({ to: 'a@example.com', subject: 's', html: 'h' }),
      isAppError('failed_precondition', 'email is not configured: set --smtp-sender-email'),
    );
  });

  test('an unreachable relay answers a generic internal error', async () => {
    const closed = await startSmtpSink();
    const flags = closed.flags();
    await closed.close();
    const log = capturingLogger();
    await assert.rejects(
      createSmtpMailer(configWith(flags), log.logger).send({ to: 'a@example.com', subject: 's', html: 'h' }),
      isAppError('unavailable', 'failed to send email'),
    );
    assert.match(log.text(), /email delivery failed/);
  });
});

describe('SMTP authentication and TLS', () => {
  const credentials = { username: 'mailer', password: 'smtp-pa55word-secret' };
  let sink: SmtpSink;
  before(async () => {
    sink = await startSmtpSink({ auth: credentials });
  });
  after(() => sink.close());

  test('--smtp-username and --smtp-password authenticate', async () => {
    const config = configWith(sink.flags());
    await createSmtpMailer(config, capturingLogger().logger).send({ to: 'auth@example.com', subject: 'hello', html: '<p>hi</p>', text: 'hi' });
    const message = await sink.waitFor((m) => m.envelope.to.includes('auth@example.com'));
    assert.equal(message.user, 'mailer');
    assert.equal(message.subject, 'hello');
    assert.equal(message.text?.trim(), 'hi');
  });

  test('a refused login fails generically and the password reaches neither the error nor the log', async () => {
    const flags = sink.flags().map((f) => (f === credentials.password ? 'wrong-secret-value' : f));
    const log = capturingLogger();
    const failure = await createSmtpMailer(configWith(flags), log.logger)
      .send({ to: 'a@example.com', subject: 's', html: 'h' })
      .then(() => undefined, (err: unknown) => err);
    assert.ok(isAppError('unavailable', 'failed to send email')(failure));
    assert.match(log.text(), /email delivery failed/);
    assert.match(log.text(), /"responseCode":535/);
    assert.ok(!log.text().includes('wrong-secret-value'));
    assert.ok(!JSON.stringify(failure).includes('wrong-secret-value'));
  });

  test('STARTTLS with a self-signed certificate: refused unless --smtp-skip-tls-verification', async () => {
    const tlsSink = await startSmtpSink({ tls: true });
    try {
      const strict = configWith(tlsSink.flags());
      await assert.rejects(
        createSmtpMailer(strict, capturingLogger().logger).send({ to: 'tls@example.com', subject: 's', html: 'h' }),
        isAppError('unavailable', 'failed to send email'),
      );
      const relaxed = configWith([...tlsSink.flags(), '--smtp-skip-tls-verification=true']);
      await createSmtpMailer(relaxed, capturingLogger().logger).send({ to: 'tls@example.com', subject: 'over tls', html: 'h' });
      const message = await tlsSink.waitFor((m) => m.subject === 'over tls');
      assert.deepEqual(message.envelope.to, ['tls@example.com']);
    } finally {
      await tlsSink.close();
    }
  });
});
