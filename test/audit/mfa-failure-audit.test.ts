/**
 * Failed second factors are in the audit log (OWASP ASVS 7.1.3): a wrong authenticator-app code, a wrong
 * recovery code, a wrong emailed or texted code, at a sign-in's challenge (verify_otp with the `mfa` cookie,
 * over REST, GraphQL and gRPC) or while confirming a factor being added, and an attempt refused by the
 * hourly allowance of wrong codes, each leave `user.mfa_failed` naming the user, the method, the stage, the
 * reason and the client IP; never the code typed.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { status as grpcStatus } from '@grpc/grpc-js';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { postGraphql } from '../graphql/client.ts';
import { cookieValue, restClient, type RestReply } from '../support/rest-client.ts';
import { createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { signedInUser } from '../support/signed-in-user.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';
import { totpCode, TOTP_PERIOD_SECONDS } from '../../server/modules/mfa/totp.ts';

const PASSWORD = 'Str0ng!pass-mfa-audit';
/** A code no factor will take: far in the future for the app, and never sent by email or SMS. */
const WRONG_CODE = '013579';
/** Shaped like a recovery code (two groups of five), but not one of the user's. */
const WRONG_RECOVERY = 'ABCDE-FGHJK';

interface Entry {
  actor_id: string;
  actor_type: string;
  resource_id: string;
  ip_address: string;
  metadata: Record<string, unknown>;
  raw: string;
}

describe('failed second factors are audited', () => {
  const clock = new TestClock();
  let smtp: SmtpSink;
  let sms: SmsSink;
  let server: TestServer;
  let grpc: GrpcTestClient;
  let api: ReturnType<typeof restClient>;
  let count = 0;

  before(async () => {
    smtp = await startSmtpSink();
    sms = await startSmsSink();
    server = await startServer([...smtp.flags(), ...sms.flags()], { clock });
    grpc = createGrpcClient(server.ports.grpc!);
    api = restClient(server);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
    await smtp?.close();
    await sms?.close();
  });

  const login = (email: string) => api.post('/v1/login', { email, password: PASSWORD });
  const mfaCookie = (reply: RestReply) => `mfa=${cookieValue(reply.cookies, 'mfa')}`;

  async function failuresOf(userId: string): Promise<Entry[]> {
    const body = await adminClient(server).ok('audit_logs', { action: 'user.mfa_failed', actor_id: userId, pagination: { limit: 100 } });
    return body.audit_logs.map((entry: Omit<Entry, 'metadata' | 'raw'> & { metadata: string }) => ({ ...entry, metadata: JSON.parse(entry.metadata), raw: JSON.stringify(entry) }));
  }

  function assertFailure(entry: Entry | undefined, userId: string, metadata: Record<string, unknown>, typed: string): void {
    assert.ok(entry, 'an audit entry');
    assert.equal(entry.actor_type, 'user');
    assert.equal(entry.actor_id, userId);
    assert.equal(entry.resource_id, userId);
    assert.ok(entry.ip_address, 'the client IP');
    assert.deepEqual(entry.metadata, metadata);
    assert.ok(!entry.raw.includes(typed), 'the typed code is not in the audit log');
  }

  async function signedIn(withPhone = false) {
    const n = ++count;
    const phone = `+1555200${String(n).padStart(4, '0')}`;
    const user = await signedInUser(server, { email: `mfa-audit-${n}@example.com`, password: PASSWORD, phone: withPhone ? phone : undefined });
    return { ...user, phone };
  }

  /** A user with a verified authenticator app; one wrong code while adding it. */
  async function totpUser() {
    const user = await signedIn();
    const setup = await api.post('/v1/totp_mfa_setup', {}, user.bearer);
    assert.equal(setup.status, 200, JSON.stringify(setup.body));
    const secret = setup.body.authenticator_secret as string;
    const wrong = await api.post('/v1/verify_otp', { otp: WRONG_CODE, is_totp: true }, user.bearer);
    assert.equal(wrong.status, 400);
    const verified = await api.post('/v1/verify_otp', { otp: totpCode(secret, clock.now()), is_totp: true }, user.bearer);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    clock.advance(TOTP_PERIOD_SECONDS);
    return { ...user, secret };
  }

  test('a wrong authenticator-app code at the sign-in challenge, over REST, GraphQL and gRPC', async () => {
    const user = await totpUser();
    const enrolment = await failuresOf(user.userId);
    assert.equal(enrolment.length, 1, 'the wrong code while adding the app');
    assertFailure(enrolment[0], user.userId, { mfa_method: 'totp', stage: 'enrolment', reason: 'wrong_code' }, WRONG_CODE);

    const rest = await api.post('/v1/verify_otp', { otp: WRONG_CODE, is_totp: true }, { cookie: mfaCookie(await login(user.email)) });
    assert.equal(rest.status, 400);
    const graphql = await postGraphql(server, 'mutation($p: VerifyOTPRequest!) { verify_otp(params: $p) { message } }', { p: { otp: WRONG_CODE, is_totp: true } }, { cookie: mfaCookie(await login(user.email)) });
    assert.equal(graphql.body.errors?.[0]?.extensions?.code, 'INVALID_ARGUMENT', JSON.stringify(graphql.body));
    const failure = await refusal(grpc.call('PublicService', 'VerifyOtp', { otp: WRONG_CODE, is_totp: true }, { cookie: mfaCookie(await login(user.email)) }));
    assert.equal(failure.code, grpcStatus.INVALID_ARGUMENT);

    const signIns = (await failuresOf(user.userId)).filter((e) => e.metadata.stage === 'sign_in');
    assert.equal(signIns.length, 3, 'one per protocol');
    for (const entry of signIns) assertFailure(entry, user.userId, { mfa_method: 'totp', stage: 'sign_in', reason: 'wrong_code' }, WRONG_CODE);
  });

  test('a wrong recovery code is audited as a recovery code', async () => {
    const user = await totpUser();
    const wrong = await api.post('/v1/verify_otp', { otp: WRONG_RECOVERY, is_totp: true }, { cookie: mfaCookie(await login(user.email)) });
    assert.equal(wrong.status, 400);
    const entry = (await failuresOf(user.userId)).find((e) => e.metadata.stage === 'sign_in');
    assertFailure(entry, user.userId, { mfa_method: 'recovery_code', stage: 'sign_in', reason: 'wrong_code' }, WRONG_RECOVERY);
  });

  test('wrong emailed and texted codes, while adding the factor and at the sign-in challenge', async () => {
    const user = await signedIn(true);
    for (const [setupPath, method] of [['/v1/email_otp_mfa_setup', 'email_otp'], ['/v1/sms_otp_mfa_setup', 'sms_otp']] as const) {
      assert.equal((await api.post(setupPath, {}, user.bearer)).status, 200);
      const wrong = await api.post('/v1/verify_otp', { otp: WRONG_CODE, mfa_method: method }, user.bearer);
      assert.equal(wrong.status, 400, JSON.stringify(wrong.body));
      const entries = await failuresOf(user.userId);
      assertFailure(entries.find((e) => e.metadata.mfa_method === method), user.userId, { mfa_method: method, stage: 'enrolment', reason: 'wrong_code' }, WRONG_CODE);
    }
    // Confirm the email factor with its mailed code, then fail its sign-in challenge.
    await server.app.outbox.idle();
    const mail = await smtp.waitFor((m) => m.envelope.to.includes(user.email) && /\b\d{6}\b/.test(m.text ?? ''), 15_000);
    const code = /\b(\d{6})\b/.exec(mail.text ?? '')![1]!;
    assert.equal((await api.post('/v1/verify_otp', { otp: code, mfa_method: 'email_otp' }, user.bearer)).status, 200);
    const challenged = await login(user.email);
    assert.equal(challenged.body.access_token, undefined, 'a challenge');
    const wrong = await api.post('/v1/verify_otp', { email: user.email, otp: WRONG_CODE, mfa_method: 'email_otp' }, { cookie: mfaCookie(challenged) });
    assert.equal(wrong.status, 400, JSON.stringify(wrong.body));
    const entry = (await failuresOf(user.userId)).find((e) => e.metadata.stage === 'sign_in');
    assertFailure(entry, user.userId, { mfa_method: 'email_otp', stage: 'sign_in', reason: 'wrong_code' }, WRONG_CODE);
  });

  test('an attempt refused by the hourly allowance of wrong codes is audited too', async () => {
    const user = await totpUser();
    const answers: number[] = [];
    for (let round = 0; round < 3; round++) {
      const cookie = mfaCookie(await login(user.email));
      for (let i = 0; i < 4; i++) answers.push((await api.post('/v1/verify_otp', { otp: WRONG_CODE, is_totp: true }, { cookie })).status);
    }
    assert.ok(answers.includes(429), `the allowance refuses at last: ${answers.join(',')}`);
    const signIns = (await failuresOf(user.userId)).filter((e) => e.metadata.stage === 'sign_in');
    assert.equal(signIns.length, answers.length, 'every attempt is in the log');
    assert.ok(signIns.some((e) => e.metadata.reason === 'rate_limited'));
    assert.ok(signIns.every((e) => !e.raw.includes(WRONG_CODE)));
  });
});
