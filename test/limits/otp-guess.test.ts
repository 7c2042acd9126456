/**
 * One-time codes: asking for a new code must not buy new guesses. Each code allows five checks, and every
 * check also counts in the 'otp_guess' limit of its purpose and target (ten an hour), which survives
 * re-issued codes; once spent, even the right code is refused, with Retry-After over REST, extensions.
 * retryAfter over GraphQL and `retry-after` trailing metadata over gRPC.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { status } from '@grpc/grpc-js';
import { startServer } from '../support/app.ts';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';
import { restClient } from '../support/rest-client.ts';
import { createGrpcClient, refusal } from '../support/grpc-client.ts';
import { postGraphql } from '../graphql/client.ts';
import { metricValue, scrape, until } from './support.ts';

const PHONE = '+15557654321';
const PASSWORD = 'Ph0ne!pass';
const NEW_PASSWORD = 'N3w!passw0rd';

async function newCode(api: ReturnType<typeof restClient>, sms: SmsSink): Promise<string> {
  const sent = sms.requests.length;
  const asked = await api.post('/v1/forgot_password', { phone_number: PHONE });
  assert.equal(asked.status, 200, JSON.stringify(asked.body));
  await until('the reset code by SMS', () => sms.requests.length > sent);
  return /\b(\d{6})\b/.exec(sms.requests.at(-1)!.form.Body!)![1]!;
}

const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

test('re-issued phone reset codes do not reset the guess count: the guesses stay capped', async () => {
  const sms = await startSmsSink();
  const server = await startServer(sms.flags());
  const grpc = createGrpcClient(server.ports.grpc!);
  try {
    const api = restClient(server);
    const signup = await api.post('/v1/signup', { phone_number: PHONE, password: PASSWORD, confirm_password: PASSWORD });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const reset = (otp: string) => api.post('/v1/reset_password', { phone_number: PHONE, otp, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD });

    // First code: five wrong guesses and it is dead.
    const first = await newCode(api, sms);
    for (let i = 0; i < 5; i++) assert.equal((await reset(wrongFor(first))).status, 400);
    assert.equal((await reset(first)).status, 400, 'the first code is retired after five wrong guesses');

    // A new code: before the fix it came with five fresh guesses, and so on without end.
    const second = await newCode(api, sms);
    for (let i = 0; i < 4; i++) assert.equal((await reset(wrongFor(second))).status, 400);
    const capped = await fetch(`${server.baseUrl}/v1/reset_password`, {
      method: 'POST',
      headers: { origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ phone_number: PHONE, otp: second, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD }),
    });
    assert.equal(capped.status, 429, 'ten checks an hour for this number: even the right code is refused now');
    assert.deepEqual(await capped.json(), { code: 'resource_exhausted', message: 'too many failed attempts: try again later' });
    const retryAfter = Number(capped.headers.get('retry-after'));
    assert.ok(retryAfter > 0 && retryAfter <= 3600, `Retry-After ${capped.headers.get('retry-after')}`);

    // A third code changes nothing, on any protocol.
    const third = await newCode(api, sms);
    assert.equal((await reset(third)).status, 429);
    const graphql = await postGraphql(
      server,
      'mutation($p: ResetPasswordRequest!) { reset_password(params: $p) { message } }',
      { p: { phone_number: PHONE, otp: third, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD } },
    );
    const error = graphql.body.errors?.[0] as { extensions?: { code?: string; retryAfter?: number } } | undefined;
    assert.equal(error?.extensions?.code, 'TOO_MANY_REQUESTS', JSON.stringify(graphql.body));
    assert.ok((error?.extensions?.retryAfter ?? 0) > 0, 'extensions.retryAfter');
    const failure = await refusal(grpc.call('PublicService', 'ResetPassword', { phone_number: PHONE, otp: third, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD }));
    assert.equal(failure.code, status.RESOURCE_EXHAUSTED);
    assert.ok(Number(failure.trailers.get('retry-after')[0]) > 0, 'retry-after trailing metadata');

    // The old password still works: no guess got through.
    assert.equal((await api.post('/v1/login', { phone_number: PHONE, password: PASSWORD })).status, 200);
    const metrics = await scrape(server);
    assert.ok(metricValue(metrics, 'portcullis_rate_limited_total', { route: '/v1/reset_password', bucket: 'otp_guess' }) >= 2);
    assert.equal(metricValue(metrics, 'portcullis_rate_limited_total', { route: '/graphql', bucket: 'otp_guess' }), 1);
    assert.equal(metricValue(metrics, 'portcullis_rate_limited_total', { route: '/portcullis.v1.PublicService/ResetPassword', bucket: 'otp_guess' }), 1);
  } finally {
    grpc.close();
    await server.close();
    await sms.close();
  }
});

test('unknown numbers are capped the same way, so the refusal tells nothing about accounts', async () => {
  const server = await startServer();
  try {
    const api = restClient(server);
    const answers = [];
    for (let i = 0; i < 11; i++) {
      answers.push((await api.post('/v1/reset_password', { phone_number: '+15550001111', otp: '123456', password: NEW_PASSWORD, confirm_password: NEW_PASSWORD })).status);
    }
    assert.deepEqual(answers, [...Array(10).fill(400), 429]);
  } finally {
    await server.close();
  }
});
