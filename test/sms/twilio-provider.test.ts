/**
 * SMS through the Twilio-style HTTP provider (docs/email-and-sms.md) against a real local HTTP sink: the form
 * POST, basic auth, the --twilio-api-url flag, not-configured refusals and failures that keep the secret
 * out of errors and logs.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';
import { AppError } from '../../server/kernel/errors.ts';
import { createSmsProvider, isSmsConfigured, twilioMessagesUrl } from '../../server/modules/sms/index.ts';
import { configWith, capturingLogger } from '../email/config.ts';

const SECRET = 'twilio-api-secret-value';

function twilioFlags(baseUrl: string): string[] {
  return [
    '--twilio-api-url', baseUrl,
    '--twilio-account-sid', 'AC123',
    '--twilio-api-key', 'SK456',
    '--twilio-api-secret', SECRET,
    '--twilio-sender', '+15550001111',
  ];
}

describe('Twilio-style SMS provider', () => {
  let sink: SmsSink;
  before(async () => {
    sink = await startSmsSink();
  });
  after(() => sink.close());

  test('posts To, From and Body as a form with basic auth to the Messages resource', async () => {
    const config = configWith(twilioFlags(`${sink.url}/`));
    assert.equal(isSmsConfigured(config), true);
    await createSmsProvider(config, capturingLogger().logger).send(' +15557654321 ', 'Your code is 123456 & more');
    const request = sink.requests.at(-1)!;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/2010-04-01/Accounts/AC123/Messages.json');
    assert.equal(request.contentType, 'application/x-www-form-urlencoded');
    assert.equal(request.username, 'SK456');
    assert.equal(request.password, SECRET);
    assert.deepEqual(request.form, { To: '+15557654321', From: '+15550001111', Body: 'Your code is 123456 & more' });
  });

  test('the API base defaults to api.twilio.com', () => {
    const config = configWith(['--twilio-account-sid', 'AC9']);
    assert.equal(config.twilioApiUrl, 'https://api.twilio.com');
    assert.equal(twilioMessagesUrl(config), 'https://api.twilio.com/2010-04-01/Accounts/AC9/Messages.json');
  });

  test('not configured: failed_precondition naming the missing flags, and nothing is sent', async () => {
    const before = sink.requests.length;
    const config = configWith(['--twilio-api-url', sink.url, '--twilio-account-sid', 'AC123']);
    assert.equal(isSmsConfigured(config), false);
    await assert.rejects(createSmsProvider(config, capturingLogger().logger).send('+15557654321', 'x'), (err: unknown) => {
      assert.ok(err instanceof AppError);
      assert.equal(err.kind, 'failed_precondition');
      assert.equal(err.message, 'sms is not configured: set --twilio-api-key, --twilio-api-secret, --twilio-sender');
      return true;
    });
    assert.equal(sink.requests.length, before);
  });

  test('a refusal by the provider is a generic internal error; the log has the status, not the secret', async () => {
    sink.failNext(401, { code: 20003, message: `Authenticate ${SECRET}`, more_info: 'https://www.twilio.com/docs/errors/20003' });
    const log = capturingLogger();
    const failure = await createSmsProvider(configWith(twilioFlags(sink.url)), log.logger)
      .send('+15557654321', 'code 654321')
      .then(() => undefined, (err: unknown) => err);
    assert.ok(failure instanceof AppError);
    assert.equal(failure.kind, 'unavailable');
    assert.equal(failure.message, 'failed to send sms');
    assert.match(log.text(), /"status":401/);
    assert.match(log.text(), /"providerCode":20003/);
    for (const secret of [SECRET, 'code 654321', Buffer.from(`SK456:${SECRET}`).toString('base64')]) {
      assert.ok(!log.text().includes(secret), `log must not contain ${secret}`);
      assert.ok(!JSON.stringify(failure).includes(secret));
    }
  });

  test('an unreachable provider is a generic internal error', async () => {
    const gone = await startSmsSink();
    await gone.close();
    const log = capturingLogger();
    await assert.rejects(
      createSmsProvider(configWith(twilioFlags(gone.url)), log.logger).send('+15557654321', 'x'),
      (err: unknown) => err instanceof AppError && err.kind === 'unavailable' && err.message === 'failed to send sms',
    );
    assert.match(log.text(), /sms delivery failed/);
    assert.match(log.text(), /ECONNREFUSED/);
  });
});
