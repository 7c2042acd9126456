/**
 * checkIssuedTokenInMemory (modules/tokens/validate-token.ts): once a token has been validated, the token
 * state cache holds its verified claims, record and user, and the check answers synchronously from them,
 * with the claims the asynchronous path answered; every write that ends the token (logout, access
 * revocation) or an expiry makes it answer nothing valid from then on, so the caller never takes a stale
 * answer. The REST tests (single-instance.test.ts, http/validate-route.test.ts) see the same answers from
 * outside; this one makes sure memory is what answers them.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../../support/admin-client.ts';
import { restClient } from '../../support/rest-client.ts';
import { signedInUser } from '../../support/signed-in-user.ts';
import { TestClock } from '../../support/test-clock.ts';
import { ANY_CLIENT, checkIssuedTokenInMemory } from '../../../server/modules/tokens/index.ts';
import { AppError } from '../../../server/kernel/errors.ts';

const PASSWORD = 'Str0ng!pass-in-memory';

describe('the in-memory token check', () => {
  let server: TestServer;
  let api: ReturnType<typeof restClient>;
  let count = 0;
  const clock = new TestClock();

  before(async () => {
    server = await startServer([], { clock });
    api = restClient(server);
  });
  after(async () => {
    await server?.close();
  });

  async function signedIn() {
    const user = await signedInUser(server, { email: `in-memory-${++count}@example.com`, password: PASSWORD });
    return { userId: user.userId, access: user.accessToken, bearer: user.bearer };
  }

  const validate = (token: string) => api.post('/v1/validate_jwt_token', { token_type: 'access_token', token });

  /** What memory answers now: the issued token, nothing (the caller would read storage), or the refusal. */
  function fromMemory(token: string): { claims: Record<string, unknown> } | undefined | AppError {
    try {
      const answer = checkIssuedTokenInMemory(server.app.deps, token, 'access_token', ANY_CLIENT);
      assert.ok(!(answer instanceof Promise), 'the check is synchronous');
      return answer;
    } catch (err) {
      if (err instanceof AppError) return err;
      throw err;
    }
  }

  test('after one validation, memory answers the claims the validation answered', async () => {
    const user = await signedIn();
    const validated = await validate(user.access);
    assert.equal(validated.status, 200);
    const answer = fromMemory(user.access);
    assert.ok(answer && !(answer instanceof AppError), 'memory holds the token after a validation');
    assert.equal(answer.claims.sub, user.userId);
    assert.equal(answer.claims.jti, validated.body.claims.jti);
    assert.equal(fromMemory(user.access.slice(0, -2) + 'xx'), undefined, 'another token text is not in memory');
  });

  test('a token of another type is refused from memory as on the asynchronous path', async () => {
    const user = await signedIn();
    assert.equal((await validate(user.access)).status, 200);
    assert.throws(() => checkIssuedTokenInMemory(server.app.deps, user.access, 'id_token', ANY_CLIENT), (err: unknown) => err instanceof AppError && err.kind === 'unauthenticated');
  });

  test('after logout, memory no longer answers the token as valid', async () => {
    const user = await signedIn();
    assert.equal((await validate(user.access)).status, 200);
    assert.ok(fromMemory(user.access) && !(fromMemory(user.access) instanceof AppError));
    const logout = await api.post('/v1/logout', {}, user.bearer);
    assert.equal(logout.status, 200, JSON.stringify(logout.body));
    const after = fromMemory(user.access);
    assert.ok(after === undefined || (after instanceof AppError && after.kind === 'unauthenticated'), `memory answered ${JSON.stringify(after)}`);
    assert.equal((await validate(user.access)).status, 401);
  });

  test('after an admin revokes access, memory no longer answers the token as valid', async () => {
    const user = await signedIn();
    assert.equal((await validate(user.access)).status, 200);
    const revoke = await api.post('/v1/admin/revoke_access', { user_id: user.userId }, ADMIN);
    assert.equal(revoke.status, 200, JSON.stringify(revoke.body));
    const after = fromMemory(user.access);
    assert.ok(after === undefined || after instanceof AppError, `memory answered ${JSON.stringify(after)}`);
    assert.equal((await validate(user.access)).status, 401);
  });

  test('an expired token is refused from memory', async () => {
    const user = await signedIn();
    assert.equal((await validate(user.access)).status, 200);
    const answer = fromMemory(user.access);
    assert.ok(answer && !(answer instanceof AppError));
    clock.advance(Number(answer.claims.exp) - Number(answer.claims.iat) + 1);
    try {
      const expired = fromMemory(user.access);
      assert.ok(expired instanceof AppError && /expired/.test(expired.message), `memory answered ${JSON.stringify(expired)}`);
    } finally {
      clock.advance(-(Number(answer.claims.exp) - Number(answer.claims.iat) + 1));
    }
  });
});
