/**
 * Passphrases fit: a password of 64 and more characters (NIST SP 800-63B 5.1.1.2: verifiers should permit
 * at least 64) signs up and then signs in, over REST, GraphQL and gRPC; 129 characters are refused with
 * the rule's message. Before, anything over 36 characters was refused.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { postGraphql, onlyError } from '../graphql/client.ts';
import { createGrpcClient, refusal, type GrpcTestClient } from '../support/grpc-client.ts';

const PASSPHRASE_64 = 'Correct horse battery staple: 4 long walks by the sea at 6 & 7pm';
const PASSPHRASE_128 = `${PASSPHRASE_64} and then the same again: ${'x'.repeat(128 - PASSPHRASE_64.length - 26)}`;
const TOO_LONG = `${PASSPHRASE_128}!`;
const INVALID_ARGUMENT = 3;

describe('long passphrases', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  before(async () => {
    server = await startServer();
    grpc = createGrpcClient(server.ports.grpc!);
    assert.equal([...PASSPHRASE_64].length, 64);
    assert.equal([...PASSPHRASE_128].length, 128);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
  });

  test('REST: 64 and 128 characters sign up and sign in; 129 are refused', async () => {
    const api = restClient(server);
    for (const [email, password] of [['rest64@example.com', PASSPHRASE_64], ['rest128@example.com', PASSPHRASE_128]] as const) {
      const signup = await api.post('/v1/signup', { email, password, confirm_password: password });
      assert.equal(signup.status, 200, JSON.stringify(signup.body));
      const login = await api.post('/v1/login', { email, password });
      assert.equal(login.status, 200, JSON.stringify(login.body));
      assert.ok(login.body.access_token);
    }
    const refused = await api.post('/v1/signup', { email: 'rest129@example.com', password: TOO_LONG, confirm_password: TOO_LONG });
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, { code: 'invalid_argument', message: 'password must be between 6 and 128 characters long' });
  });

  test('GraphQL', async () => {
    const query = 'mutation($p: SignUpRequest!) { signup(params: $p) { access_token } }';
    const ok = await postGraphql(server, query, { p: { email: 'gql64@example.com', password: PASSPHRASE_64, confirm_password: PASSPHRASE_64 } });
    assert.ok((ok.body.data?.signup as { access_token?: string } | undefined)?.access_token, JSON.stringify(ok.body));
    const refused = await postGraphql(server, query, { p: { email: 'gql129@example.com', password: TOO_LONG, confirm_password: TOO_LONG } });
    assert.deepEqual(onlyError(refused), { message: 'password must be between 6 and 128 characters long', code: 'INVALID_ARGUMENT' });
  });

  test('gRPC', async () => {
    const ok = await grpc.call('PublicService', 'Signup', { email: 'grpc64@example.com', password: PASSPHRASE_64, confirm_password: PASSPHRASE_64 });
    assert.ok(ok.response.access_token);
    const failure = await refusal(grpc.call('PublicService', 'Signup', { email: 'grpc129@example.com', password: TOO_LONG, confirm_password: TOO_LONG }));
    assert.equal(failure.code, INVALID_ARGUMENT);
    assert.equal(failure.details, 'password must be between 6 and 128 characters long');
  });
});
