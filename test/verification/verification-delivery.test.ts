/**
 * Links and codes delivered for real: the verification email goes through a local SMTP server and the
 * token read from its link is accepted once; codes sent by email and by SMS (local HTTP sink) are
 * accepted. SQLite.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createSealer } from '../../server/kernel/encryption.ts';
import { AppError } from '../../server/kernel/errors.ts';
import {
  consumeOtp,
  consumeVerification,
  sendOtpEmail,
  sendOtpSms,
  sendVerificationEmail,
} from '../../server/modules/verification/index.ts';
import { startSmtpSink, firstLink, type SmtpSink } from '../support/smtp-sink.ts';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';
import { configWith, capturingLogger } from '../email/config.ts';
import { createRateLimiter, memoryFactory, policiesFor } from '../../server/modules/limits/index.ts';
import { openTestStore, TestClock, type TestStore } from './store.ts';

/** consumeOtp counts guesses per target in the 'otp_guess' limit too; an in-memory one per test file. */
const limits = createRateLimiter(policiesFor({ rateLimitRps: 0, rateLimitBurst: 0, loginLockoutThreshold: 10 }), memoryFactory);

describe('verification delivery', () => {
  let store: TestStore;
  let smtp: SmtpSink;
  let sms: SmsSink;
  let deps: Parameters<typeof sendVerificationEmail>[1] & Parameters<typeof sendOtpSms>[1];
  const clock = new TestClock('2026-08-01T09:00:00.000Z');
  const log = capturingLogger();

  before(async () => {
    store = await openTestStore('sqlite');
    smtp = await startSmtpSink();
    sms = await startSmsSink();
    const config = configWith([
      '--url', 'https://login.example.com',
      '--organization-name', 'Acme',
      ...smtp.flags(),
      '--twilio-api-url', sms.url,
      '--twilio-account-sid', 'AC1',
      '--twilio-api-key', 'SK1',
      '--twilio-api-secret', 'sms-secret',
      '--twilio-sender', '+15550000000',
    ]);
    deps = { config, logger: log.logger, clock, sealer: createSealer(config) };
  });
  after(async () => {
    await smtp?.close();
    await sms?.close();
    await store?.close();
  });

  test('the emailed link carries a token that verifies once, and redirect_uri', async () => {
    await sendVerificationEmail(store.storage.fork(), deps, {
      event: 'basic_auth_signup',
      to: 'Signup@Example.com',
      user: { email: 'signup@example.com', given_name: 'Sam' },
      userId: 'user-signup',
      redirectUri: 'https://app.example.com/welcome',
    });
    const message = await smtp.waitFor((m) => m.envelope.to.some((to) => to.toLowerCase() === 'signup@example.com'));
    const link = new URL(firstLink(message.text)!);
    assert.equal(link.origin + link.pathname, 'https://login.example.com/verify_email');
    assert.equal(link.searchParams.get('redirect_uri'), 'https://app.example.com/welcome');
    const token = link.searchParams.get('token')!;
    const row = await consumeVerification(store.storage.fork(), clock, token, ['basic_auth_signup']);
    assert.equal(row.userId, 'user-signup');
    assert.equal(row.email, 'signup@example.com');
    assert.equal(row.redirectUri, 'https://app.example.com/welcome');
    await assert.rejects(consumeVerification(store.storage.fork(), clock, token, ['basic_auth_signup']), AppError);
  });

  test('the reset email links to the reset page with a forgot_password token', async () => {
    await sendVerificationEmail(store.storage.fork(), deps, { event: 'forgot_password', to: 'reset@example.com', user: {} });
    const message = await smtp.waitFor((m) => m.envelope.to.includes('reset@example.com'));
    const link = new URL(firstLink(message.text)!);
    assert.equal(link.pathname, '/app/reset-password');
    await assert.rejects(consumeVerification(store.storage.fork(), clock, link.searchParams.get('token')!, ['basic_auth_signup']), AppError);
    assert.ok(await consumeVerification(store.storage.fork(), clock, link.searchParams.get('token')!, ['forgot_password']));
  });

  test('a code sent by email is accepted', async () => {
    await sendOtpEmail(store.storage.fork(), deps, { email: 'otp@example.com', userId: 'user-otp', purpose: 'verify_otp', user: { email: 'otp@example.com' } });
    const message = await smtp.waitFor((m) => m.envelope.to.includes('otp@example.com'));
    const code = /\b(\d{6})\b/.exec(message.text ?? '')?.[1];
    assert.ok(code, 'a six-digit code in the email');
    const row = await consumeOtp(store.storage.fork(), { clock, sealer: deps.sealer, limits }, { userId: 'user-otp', purpose: 'verify_otp', code });
    assert.equal(row.email, 'otp@example.com');
  });

  test('a code sent by SMS is accepted', async () => {
    await sendOtpSms(store.storage.fork(), deps, { phone: '+15551234567', userId: 'user-sms', purpose: 'forgot_password' });
    const request = sms.requests.at(-1)!;
    assert.equal(request.form.To, '+15551234567');
    assert.equal(request.form.From, '+15550000000');
    assert.match(request.form.Body!, /^Acme: your verification code is \d{6}\. It expires in 5 minutes\.$/);
    const code = /\d{6}/.exec(request.form.Body!)![0];
    assert.ok(await consumeOtp(store.storage.fork(), { clock, sealer: deps.sealer, limits }, { phone: '+15551234567', purpose: 'forgot_password', code }));
    assert.ok(!log.text().includes(code), 'the code is not logged');
  });
});
