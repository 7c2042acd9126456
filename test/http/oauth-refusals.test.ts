/**
 * The OAuth refusal writer (transports/http/oauth-refusals.ts): each AppError kind an OAuth endpoint's handler
 * may throw answers in RFC 6749 section 5.2's JSON shape with the status that kind means.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Fastify from 'fastify';
import { AppError } from '../../server/kernel/errors.ts';
import { sendOAuthRefusal } from '../../server/transports/http/oauth-refusals.ts';

async function answerTo(refusal: AppError) {
  const app = Fastify();
  app.get('/', (_request, reply) => sendOAuthRefusal(reply, refusal));
  const res = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return { status: res.statusCode, headers: res.headers, body: res.json() as { error: string; error_description: string } };
}

describe('OAuth refusals by kind', () => {
  test('a spent request budget is 429 temporarily_unavailable with its Retry-After, never a 400', async () => {
    const res = await answerTo(AppError.tooManyRequests('too many requests: try again later', 42));
    assert.equal(res.status, 429);
    assert.equal(res.headers['retry-after'], '42');
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.deepEqual(res.body, { error: 'temporarily_unavailable', error_description: 'too many requests: try again later' });
  });

  test('a caller mistake stays 400 invalid_request and an unexpected failure 500 server_error', async () => {
    const mistake = await answerTo(new AppError('invalid_argument', 'redirect_uri is required'));
    assert.equal(mistake.status, 400);
    assert.equal(mistake.body.error, 'invalid_request');
    assert.equal(mistake.headers['retry-after'], undefined);
    const failure = await answerTo(new AppError('internal', 'internal error (request id 7)'));
    assert.equal(failure.status, 500);
    assert.equal(failure.body.error, 'server_error');
  });
});
