/**
 * Every input string and list is bounded (ASVS 4.0 5.1.4; server/ops/input-limits.ts): names 256, email 254
 * (RFC 5321 section 4.5.3.1), phone 32, URLs 2048, tokens 4096, lists 100 items. An over-long value is
 * invalid_argument naming the field, over REST and GraphQL alike; a value at the bound still passes.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { threeProtocols } from '../support/three-protocols.ts';

const PASSWORD = 'Limits-Test-Passw0rd!';
let counter = 0;
const signupInput = (extra: Record<string, unknown>) => ({ email: `limits${counter++}@example.com`, password: PASSWORD, confirm_password: PASSWORD, ...extra });

describe('input length limits', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const overLong: Array<[string, Record<string, unknown>, RegExp]> = [
    ['a 257-character given_name', { given_name: 'n'.repeat(257) }, /^given_name: .*256/],
    ['a 257-character nickname', { nickname: 'n'.repeat(257) }, /^nickname: .*256/],
    ['a 255-character email', { email: `${'e'.repeat(243)}@example.com` }, /^email: .*254/],
    ['a 33-character phone number', { phone_number: `+${'1'.repeat(32)}` }, /^phone_number: .*32/],
    ['a 2049-character picture URL', { picture: `https://example.com/${'p'.repeat(2029)}` }, /^picture: .*2048/],
    ['101 scopes', { scope: Array.from({ length: 101 }, (_, i) => `s${i}`) }, /^scope: .*100/],
    ['a 257-character role', { roles: ['r'.repeat(257)] }, /^roles\.0: .*256/],
  ];

  for (const [name, extra, message] of overLong) {
    test(`${name} is invalid_argument over REST and GraphQL`, async () => {
      const rest = await restClient(server).post('/v1/signup', signupInput(extra));
      assert.equal(rest.status, 400, JSON.stringify(rest.body));
      assert.equal(rest.body.code, 'invalid_argument');
      assert.match(rest.body.message, message);

      const graphql = await threeProtocols(server).send('graphql', 'signup', signupInput(extra));
      assert.equal(graphql.code, 'INVALID_ARGUMENT', JSON.stringify(graphql.body));
      assert.match(graphql.message!, message);
    });
  }

  test('a 4097-character token is refused before any lookup', async () => {
    const res = await restClient(server).post('/v1/verify_email', { token: 't'.repeat(4097) });
    assert.equal(res.status, 400);
    assert.match(res.body.message, /^token: .*4096/);
  });

  test('values at the bound still pass', async () => {
    const res = await restClient(server).post('/v1/signup', signupInput({ given_name: 'n'.repeat(256), nickname: 'k'.repeat(256) }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.user.given_name.length, 256);
  });
});
