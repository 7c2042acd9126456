/**
 * Organization SSO passes the MFA gate like social sign-in (docs/api-overview.md#states-and-transitions: the token is withheld
 * while a challenge is pending): the IdP's word is a first factor. A member with an authenticator app lands
 * on the login UI's MFA step with the `mfa` cookie and no session; the right code completes the sign-in,
 * and the tokens it answers still name the organization (the login method keeps it across the gate).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { TestClock } from '../support/test-clock.ts';
import { enrolTotp } from '../support/second-factors.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers } from '../support/org-callers.ts';
import { startOidcUpstream, type OidcUpstream } from '../support/social-oidc-upstream.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { totpCode } from '../../server/modules/mfa/totp.ts';

const APP = 'https://app.example.com/callback';
const CALLBACK = 'http://127.0.0.1:8080/sso/oidc/callback';

describe('organization SSO of a member with a second factor', () => {
  const clock = new TestClock();
  let upstream: OidcUpstream;
  let server: TestServer;
  let grpc: GrpcTestClient;
  const callers = orgCallers(() => server, () => grpc);

  before(async () => {
    upstream = await startOidcUpstream({ redirectUri: CALLBACK, provider: 'mfa-idp' });
    server = await startServer(['--allowed-origins', '*,https://app.example.com', '--org-sso-allow-private-addresses=true'], { clock });
    grpc = createGrpcClient(server.ports.grpc!);
    upstream.accounts.set('m1', { email: 'member@mfa-corp.com', email_verified: true });
  });
  after(async () => {
    grpc?.close();
    await server?.close();
    await upstream?.close();
  });

  test('lands on the MFA step with no session; the code completes it with the organization claims', async () => {
    const org = await callers.over('rest', 'create_organization', { name: 'mfa-corp' });
    await callers.over('rest', 'add_verified_org_domain', { org_id: org.id, domain: 'mfa-corp.com' });
    await callers.over('rest', 'create_org_oidc_connection', { org_id: org.id, issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret });
    const api = restClient(server);
    const start = (state: string) => `${server.baseUrl}/sso/mfa-corp/start?${new URLSearchParams({ redirect_uri: APP, state })}`;

    upstream.signInAs('m1');
    const first = new TestBrowser(server.baseUrl, [upstream.issuer]);
    assert.equal((await first.navigate(start('s1'))).location, `${APP}?state=s1`, 'no factor yet: straight to the application');
    const session = await api.post('/v1/session', {}, { cookie: first.cookieHeader() });
    const bearer = { authorization: `Bearer ${session.body.access_token}` };
    const { secret } = await enrolTotp(server, bearer, clock);

    upstream.signInAs('m1');
    const browser = new TestBrowser(server.baseUrl, [upstream.issuer]);
    const landing = await browser.navigate(start('s2'));
    const hop = landing.hops.find((h) => h.location?.includes('/app/mfa'));
    assert.ok(hop, JSON.stringify(landing.hops.map((h) => [h.status, h.location])));
    const step = new URL(hop.location!);
    assert.equal(step.searchParams.get('step'), 'verify');
    assert.equal(step.searchParams.get('redirect_uri'), APP);
    assert.equal(step.searchParams.get('state'), 's2');
    assert.equal((await api.post('/v1/session', {}, { cookie: browser.cookieHeader() })).status, 401, 'no session before the second factor');

    const done = await api.post('/v1/verify_otp', { email: 'member@mfa-corp.com', otp: totpCode(secret, clock.now()), is_totp: true }, { cookie: browser.cookieHeader() });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const id = decodeJwt(done.body.id_token);
    assert.ok((id.amr as string[]).includes('fed') && (id.amr as string[]).includes('mfa'), JSON.stringify(id.amr));
    const access = decodeJwt(done.body.access_token);
    assert.equal(access.org_id, org.id);
    assert.equal(access.org_name, 'mfa-corp');
    assert.deepEqual(access.org_roles, []);
    assert.equal(id.org_id, org.id);
  });
});
