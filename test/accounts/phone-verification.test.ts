/**
 * Phone signup with --enable-phone-verification: the code goes by SMS through the Twilio-style provider
 * to a real local HTTP sink; verify_otp marks the number verified and signs in; wrong codes are counted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../support/app.ts';
import { startSmsSink } from '../support/sms-sink.ts';
import { restClient, cookieValue } from '../support/rest-client.ts';

test('phone signup waits for the texted code; verify_otp signs in; login works after', async () => {
  const sms = await startSmsSink();
  const server = await startServer(['--enable-phone-verification', ...sms.flags()]);
  try {
    const api = restClient(server);
    const phone = '+15551234567';
    const password = 'Ph0ne!pass';
    const signup = await api.post('/v1/signup', { phone_number: phone, password, confirm_password: password });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    assert.equal(signup.body.should_show_mobile_otp_screen, true);
    assert.equal(signup.body.access_token, undefined);
    const refused = await api.post('/v1/login', { phone_number: phone, password });
    assert.match(refused.body.message, /phone number not verified/);

    // The code leaves from the message outbox after the signup committed.
    await server.app.outbox.idle();
    assert.equal(sms.requests.length, 1);
    const text = sms.requests[0]!.form.Body!;
    assert.equal(sms.requests[0]!.form.To, phone);
    const code = /\b(\d{6})\b/.exec(text)![1]!;

    const wrong = await api.post('/v1/verify_otp', { phone_number: phone, otp: code === '000000' ? '111111' : '000000' });
    assert.equal(wrong.status, 400);
    const verified = await api.post('/v1/verify_otp', { phone_number: phone, otp: code });
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    assert.ok(verified.body.access_token);
    assert.equal(verified.body.user.phone_number_verified, true);
    assert.ok(cookieValue(verified.cookies, 'cookie_session'));
    const reused = await api.post('/v1/verify_otp', { phone_number: phone, otp: code });
    assert.equal(reused.status, 400, 'a code is single use');
    assert.equal((await api.post('/v1/login', { phone_number: phone, password })).status, 200);
  } finally {
    await server.close();
    await sms.close();
  }
});
