/**
 * DPoP with the device_code grant (RFC 8628), token exchange (RFC 8693) and jwt-bearer (RFC 7523): a poll,
 * an exchange or an assertion grant that
 * carries a valid proof gets token_type DPoP and an access token bound with cnf.jkt (RFC 9449 sections 5
 * and 6.1); a broken proof is invalid_dpop_proof before the grant runs, so a device_code is not spent by it.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { CALLBACK, basicAuth, callAs, createClient, signedInBrowser, tokenRequest, type Browser, type RegisteredClient } from './authorize-support.ts';
import { userTokenFor } from './token-exchange-support.ts';
import { dpopKey, dpopProof, type DpopKey } from './dpop-support.ts';
import { JWT_BEARER, JwksServer, LOOPBACK_JWKS_FLAG, addIssuer, createClient as createWorkloadClient, newSigningKey, signAssertion } from './trusted-issuer-fixture.ts';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ACCESS_TOKEN_TYPE = 'urn:ietf:params:oauth:token-type:access_token';

describe('DPoP with the device_code grant, token exchange and jwt-bearer', () => {
  let server: TestServer;
  let browser: Browser;
  let key: DpopKey;
  const clock = new TestClock();
  before(async () => {
    server = await startServer([LOOPBACK_JWKS_FLAG], { clock });
    browser = await signedInBrowser(server);
    key = await dpopKey();
  });
  after(() => server.close());

  test('an approved device request polled with a proof gives a bound access token; a broken proof spends nothing', async () => {
    const device = await createClient(server, { name: 'TV', allowed_scopes: ['openid', 'email', 'offline_access'] });
    await adminClient(server).ok('set_client_device_grant', { client_id: device.clientId, enabled: true });
    const auth = basicAuth(device.clientId, device.secret);
    const opened = await fetch(`${server.baseUrl}/oauth/device_authorization`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...auth }, body: 'scope=openid%20email',
    }).then((res) => res.json() as Promise<Record<string, string>>);
    const decided = await callAs(server, browser, 'decide_device_authorization', { user_code: opened.user_code, approve: true });
    assert.equal(decided.status, 200, JSON.stringify(decided.body));
    clock.advance(5);
    const broken = await tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: opened.device_code! }, { ...auth, dpop: await dpopProof(key, { htm: 'GET' }) });
    assert.equal(broken.body.error, 'invalid_dpop_proof');
    clock.advance(5);
    const granted = await tokenRequest(server, { grant_type: DEVICE_GRANT, device_code: opened.device_code! }, { ...auth, dpop: await dpopProof(key) });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    assert.equal(granted.body.token_type, 'DPoP');
    assert.deepEqual(decodeJwt(granted.body.access_token).cnf, { jkt: key.jkt });
  });

  test('a token exchange with a proof gives a bound delegated access token', async () => {
    const resourceClient = await createClient(server, { name: 'Calendar', redirect_uris: [CALLBACK] });
    const agent: RegisteredClient = await createClient(server, { name: 'Agent', redirect_uris: [CALLBACK] });
    await adminClient(server).ok('set_client_token_exchange', { client_id: agent.clientId, enabled: true, audiences: [resourceClient.clientId] });
    const subject = await userTokenFor(server, browser.cookie, agent);
    const exchanged = await tokenRequest(server, {
      grant_type: TOKEN_EXCHANGE, subject_token: subject, subject_token_type: ACCESS_TOKEN_TYPE, audience: resourceClient.clientId,
    }, { ...basicAuth(agent.clientId, agent.secret), dpop: await dpopProof(key) });
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    assert.equal(exchanged.body.token_type, 'DPoP');
    assert.deepEqual(decodeJwt(exchanged.body.access_token).cnf, { jkt: key.jkt });
  });

  test('a jwt-bearer assertion exchanged with a proof gives a bound workload token', async () => {
    const jwks = await new JwksServer().start();
    try {
      const signing = await newSigningKey('ES256');
      jwks.keys = [signing.publicJwk];
      const owner = await createWorkloadClient(server, { name: 'jobs' });
      await addIssuer(server, { service_account_id: owner.client_id, name: 'cluster', issuer: 'https://k8s.example', jwks_url: jwks.url, audience: 'portcullis', subject_claim: 'sub' });
      const assertion = await signAssertion(signing, { iss: 'https://k8s.example', sub: 'system:serviceaccount:jobs:runner', aud: 'portcullis' });
      const granted = await tokenRequest(server, { grant_type: JWT_BEARER, assertion }, { dpop: await dpopProof(key) });
      assert.equal(granted.status, 200, JSON.stringify(granted.body));
      assert.equal(granted.body.token_type, 'DPoP');
      assert.deepEqual(decodeJwt(granted.body.access_token).cnf, { jkt: key.jkt });
    } finally {
      await jwks.close();
    }
  });
});
