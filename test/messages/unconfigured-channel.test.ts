/**
 * A flow whose channel is not configured (no SMTP, no SMS provider) is refused in words an end user can
 * read: "Password reset by email is not available on this server", never the operator's "email is not
 * configured: set --smtp-host", over REST, GraphQL and gRPC alike. The operator's detail goes to the log,
 * and to the administrator who asks for something only mail can do (invite_members). meta says which
 * channels are configured (is_email_service_enabled, is_sms_service_enabled), so the login UI offers only
 * the flows that can work.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_SECRET, startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { postGraphql, onlyError } from '../graphql/client.ts';
import { createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';
import { createLogger } from '../../server/kernel/logger.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';
import { makeUser } from './support.ts';

const CHANNEL_FLAGS = 'is_email_service_enabled is_sms_service_enabled';

/** meta's two channel flags over REST, GraphQL and gRPC, which must agree. */
async function channelFlags(server: TestServer): Promise<{ is_email_service_enabled: unknown; is_sms_service_enabled: unknown }> {
  const pick = (meta: Record<string, unknown>) => ({ is_email_service_enabled: meta.is_email_service_enabled, is_sms_service_enabled: meta.is_sms_service_enabled });
  const rest = pick((await restClient(server).get('/v1/meta')).body);
  const graphql = await postGraphql(server, `query { meta { ${CHANNEL_FLAGS} } }`);
  assert.deepEqual(graphql.body.data?.meta, rest, 'GraphQL meta');
  const grpc = createGrpcClient(server.ports.grpc!);
  try {
    assert.deepEqual(pick((await grpc.call('PublicService', 'Meta')).response), rest, 'gRPC meta');
  } finally {
    grpc.close();
  }
  return rest;
}

const BY_EMAIL = 'Password reset by email is not available on this server';
const BY_TEXT = 'Password reset by text message is not available on this server';
const FAILED_PRECONDITION = 9;

describe('a channel that is not configured', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  const logLines: string[] = [];
  before(async () => {
    const logger = createLogger('info', { write: (line: string) => void logLines.push(line) });
    // No --smtp-* and no --twilio-* flags.
    server = await startServer(['--log-level', 'info'], { logger });
    grpc = createGrpcClient(server.ports.grpc!);
    await makeUser(server, { email: 'known@example.com', phone: '+15557770002' });
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  test('meta says neither channel is configured', async () => {
    assert.deepEqual(await channelFlags(server), { is_email_service_enabled: false, is_sms_service_enabled: false });
  });

  test('forgot_password over REST names the missing service, not the flag', async () => {
    const api = restClient(server);
    for (const [body, message] of [[{ email: 'known@example.com' }, BY_EMAIL], [{ phone_number: '+15557770002' }, BY_TEXT]] as const) {
      const res = await api.post('/v1/forgot_password', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(res.body, { code: 'failed_precondition', message });
    }
  });

  test('forgot_password over GraphQL', async () => {
    const reply = await postGraphql(server, 'mutation($email: String) { forgot_password(params: {email: $email}) { message } }', { email: 'nobody@example.com' });
    assert.deepEqual(onlyError(reply), { message: BY_EMAIL, code: 'FAILED_PRECONDITION' });
  });

  test('forgot_password over gRPC', async () => {
    const failure = await refusal(grpc.call('PublicService', 'ForgotPassword', { phone_number: '+15557779998' }));
    assert.equal(failure.code, FAILED_PRECONDITION);
    assert.equal(failure.details, BY_TEXT);
  });

  test('the operator finds the flag to set in the log', () => {
    const entries = logLines.map((line) => JSON.parse(line) as { msg?: string; flow?: string; channel?: string });
    assert.ok(entries.some((e) => e.flow === 'forgot_password' && e.channel === 'email' && e.msg === 'email is not configured: set --smtp-host'), logLines.join('\n'));
    assert.ok(entries.some((e) => e.flow === 'forgot_password' && e.channel === 'sms' && /^sms is not configured: set --twilio-account-sid/.test(e.msg ?? '')), logLines.join('\n'));
  });

  test('an administrator inviting members is told what to configure', async () => {
    const res = await restClient(server, { 'x-service-admin-secret': ADMIN_SECRET }).post('/v1/admin/invite_members', { emails: ['new@example.com'] });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.code, 'failed_precondition');
    assert.match(res.body.message, /email is not configured: set --smtp-host/);
  });
});

describe('configured channels', () => {
  let smtp: SmtpSink;
  let sms: SmsSink;
  let server: TestServer;
  before(async () => {
    smtp = await startSmtpSink();
    sms = await startSmsSink();
  });
  after(async () => {
    await server?.close();
    await smtp?.close();
    await sms?.close();
  });

  test('meta says email and SMS are configured', async () => {
    server = await startServer([...smtp.flags(), ...sms.flags()]);
    assert.deepEqual(await channelFlags(server), { is_email_service_enabled: true, is_sms_service_enabled: true });
  });
});
