/**
 * aud of this server's tokens (jwt.ts audienceOk, claims.ts Grant.clientId): tokens of the instance client
 * carry its id; tokens issued to a registered client carry that client's id as aud and azp (OpenID Connect
 * Core section 2) and, in the access token, client_id (RFC 9068 section 2.2). verifyToken refuses a token,
 * signed with the same key, whose aud names neither the instance client nor its own azp; and each acceptor
 * names the audience it takes (audience.ts): the first-party API the instance client's tokens only, resource
 * servers every client's, a client acting on its own tokens only those issued to it. The claims memo of the
 * token state cache does not carry one acceptor's answer over to another.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSigningKeys } from '../../server/modules/tokens/signing-keys.ts';
import { signToken, verifyToken, audienceOk, type Claims } from '../../server/modules/tokens/jwt.ts';
import { ANY_CLIENT, FIRST_PARTY, issuedTo } from '../../server/modules/tokens/audience.ts';
import { accessTokenClaims, idTokenClaims, type Grant } from '../../server/modules/tokens/claims.ts';
import { parseConfig } from '../../server/config/parse.ts';
import { AppError } from '../../server/kernel/errors.ts';

const ISSUER = 'http://localhost:8080';
const config = parseConfig(['--database-url', 'x.db', '--url', ISSUER, '--client-id', 'instance', '--client-secret', 'b',
  '--admin-secret', 's', '--jwt-secret', 'audience-test-secret-'.repeat(3)]);
const keys = await loadSigningKeys(config);
const deps = { config, keys, clock: { now: () => new Date() } };
const grant: Grant = {
  userId: 'user-1', roles: ['user'], allowedRoles: ['user'], scope: ['openid'], loginMethod: 'basic_auth', nonce: 'n', authTime: new Date(),
};
const refused = (err: unknown) => err instanceof AppError && err.kind === 'unauthenticated';

describe('token audience', () => {
  test('the instance client: aud is its id, no azp or client_id', async () => {
    const claims = accessTokenClaims(config, grant, new Date());
    assert.equal(claims.aud, 'instance');
    assert.equal(claims.azp, undefined);
    assert.equal(claims.client_id, undefined);
    assert.equal((await verifyToken(deps, signToken(keys, claims), 'access_token', FIRST_PARTY)).sub, 'user-1');
  });

  test('a registered client: aud and azp are its id, the access token names it in client_id', async () => {
    const withClient = { ...grant, clientId: 'rp-42' };
    const access = accessTokenClaims(config, withClient, new Date());
    const id = idTokenClaims(config, withClient, new Date(), { id: 'user-1' } as never, keys.alg, 'x');
    assert.deepEqual([access.aud, access.azp, access.client_id], ['rp-42', 'rp-42', 'rp-42']);
    assert.deepEqual([id.aud, id.azp], ['rp-42', 'rp-42']);
    assert.equal((await verifyToken(deps, signToken(keys, id), 'id_token', ANY_CLIENT)).azp, 'rp-42');
  });

  test('a grant without a nonce writes no nonce claim (OIDC Core 3.1.3.7); one with a nonce carries it', () => {
    const without = idTokenClaims(config, { ...grant, nonce: '' }, new Date(), { id: 'user-1' } as never, keys.alg, 'x');
    assert.equal('nonce' in without, false);
    assert.equal(idTokenClaims(config, grant, new Date(), { id: 'user-1' } as never, keys.alg, 'x').nonce, 'n');
  });

  test('an aud naming neither the instance client nor the azp is refused, even under the right key', async () => {
    const base = accessTokenClaims(config, grant, new Date());
    const foreign: Claims = { ...base, aud: 'someone-else' };
    await assert.rejects(verifyToken(deps, signToken(keys, foreign), 'access_token', ANY_CLIENT), refused);
    const mismatched: Claims = { ...base, aud: 'rp-1', azp: 'rp-2' };
    await assert.rejects(verifyToken(deps, signToken(keys, mismatched), 'access_token', ANY_CLIENT), refused);
    const { aud: _aud, ...noAudience } = base;
    await assert.rejects(verifyToken(deps, signToken(keys, noAudience), 'access_token', ANY_CLIENT), refused);
    assert.equal(audienceOk({ aud: ['x', 'instance'] }, 'instance'), true);
    assert.equal(audienceOk({ aud: [], azp: '' }, 'instance'), false);
  });

  test('acceptors: the first-party API takes only the instance client\'s tokens, resource servers every client\'s', async () => {
    const instance = signToken(keys, accessTokenClaims(config, grant, new Date()));
    const registered = signToken(keys, accessTokenClaims(config, { ...grant, clientId: 'rp-42' }, new Date()));
    assert.equal((await verifyToken(deps, instance, 'access_token', ANY_CLIENT)).aud, 'instance');
    assert.equal((await verifyToken(deps, registered, 'access_token', ANY_CLIENT)).aud, 'rp-42');
    await assert.rejects(verifyToken(deps, registered, 'access_token', FIRST_PARTY), refused);
    assert.equal((await verifyToken(deps, registered, 'access_token', issuedTo('rp-42'))).azp, 'rp-42');
    await assert.rejects(verifyToken(deps, registered, 'access_token', issuedTo('rp-7')), refused);
    await assert.rejects(verifyToken(deps, registered, 'access_token', issuedTo(undefined)), refused);
    assert.equal((await verifyToken(deps, instance, 'access_token', issuedTo(undefined))).aud, 'instance');
    await assert.rejects(verifyToken(deps, instance, 'access_token', issuedTo('rp-42')), refused);
  });

  test('a token remembered by the claims memo is still checked against each acceptor\'s audience', async () => {
    const memo = new Map<string, Claims>();
    const tokenState = { verifiedClaims: (hash: string) => memo.get(hash), rememberClaims: (hash: string, claims: Claims) => (memo.set(hash, claims), claims) };
    const withMemo = { ...deps, tokenState };
    const registered = signToken(keys, accessTokenClaims(config, { ...grant, clientId: 'rp-42' }, new Date()));
    assert.equal((await verifyToken(withMemo, registered, 'access_token', ANY_CLIENT, 'hash-1')).azp, 'rp-42');
    assert.equal(memo.size, 1, 'the verified claims are remembered');
    await assert.rejects(verifyToken(withMemo, registered, 'access_token', FIRST_PARTY, 'hash-1'), refused);
  });
});
