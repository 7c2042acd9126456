/**
 * Pre-account hijacking through organization SSO (accounts/federated-account.ts): with email verification
 * off (the default) anyone can register an address of a company's domain with their own password before
 * the company's organization verifies the domain. The organization's IdP sign-in must then not hand that
 * account over as it stands: the account is taken over cleanly (password, sessions and factors gone) and the
 * squatter's password stops working. An account whose address was proven is linked and keeps its password;
 * without a verified domain nothing is linked.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as admin } from '../support/admin-client.ts';
import { restClient } from '../support/rest-client.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { startOidcUpstream, type OidcUpstream } from '../support/social-oidc-upstream.ts';
import { TestBrowser } from '../support/social-browser.ts';

const APP = 'https://app.example.com/callback';
const PASSWORD = 'Squatter!pass1';

describe('organization SSO and an account registered before the domain was verified', () => {
  let upstream: OidcUpstream;
  let server: TestServer;
  let api: ReturnType<typeof restClient>;

  before(async () => {
    upstream = await startOidcUpstream({ redirectUri: 'http://127.0.0.1:8080/sso/oidc/callback', provider: 'corp-idp' });
    server = await startServer(['--allowed-origins', '*,https://app.example.com', '--org-sso-allow-private-addresses=true']);
    api = restClient(server);
  });
  after(async () => {
    await server?.close();
    await upstream?.close();
  });

  async function organization(name: string, domain: string | undefined) {
    const org = await api.post('/v1/admin/create_organization', { name }, admin);
    if (domain) assert.equal((await api.post('/v1/admin/add_verified_org_domain', { org_id: org.body.id, domain }, admin)).status, 200);
    const connection = await api.post('/v1/admin/create_org_oidc_connection', { org_id: org.body.id, issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret }, admin);
    assert.equal(connection.status, 200, JSON.stringify(connection.body));
    return org.body as { id: string; name: string };
  }

  async function signUp(email: string) {
    const user = await signedUpUser(server, { email, password: PASSWORD, profile: { given_name: 'Mallory' } });
    return { id: user.userId, bearer: user.bearer };
  }

  function ssoSignIn(orgName: string, subject: string) {
    upstream.signInAs(subject);
    return new TestBrowser(server.baseUrl, [upstream.issuer]).navigate(`${server.baseUrl}/sso/${orgName}/start?${new URLSearchParams({ redirect_uri: APP, state: 's' })}`);
  }

  test("the IdP takes the squatted account over cleanly: the squatter's password and session stop working", async () => {
    const squatted = await signUp('ceo@squat-corp.example');
    const org = await organization('squat-corp', 'squat-corp.example');
    upstream.accounts.set('ceo', { email: 'ceo@squat-corp.example', email_verified: true, given_name: 'Carol' });

    const landing = await ssoSignIn(org.name, 'ceo');
    assert.equal(landing.location, `${APP}?state=s`, `the real holder signs in: ${landing.status} ${landing.body.slice(0, 300)}`);

    assert.equal((await api.post('/v1/login', { email: 'ceo@squat-corp.example', password: PASSWORD })).status, 401, "the squatter's password no longer signs in");
    assert.equal((await api.get('/v1/profile', squatted.bearer)).status, 401, "the squatter's session ended");
    const record = await api.post('/v1/admin/user', { id: squatted.id }, admin);
    assert.equal(record.body.given_name, undefined, 'what the squatter wrote about themselves is gone');
    const logs = await api.post('/v1/admin/audit_logs', { action: 'user.account_taken_over', resource_id: squatted.id }, admin);
    assert.equal(logs.body.audit_logs.length, 1, JSON.stringify(logs.body));

    const again = await ssoSignIn(org.name, 'ceo');
    assert.equal(again.location, `${APP}?state=s`, 'the link holds for the next sign-in');
  });

  test('an account whose address was proven is linked and keeps its password', async () => {
    const owner = await signUp('cfo@proven-corp.example');
    assert.equal((await api.post('/v1/admin/update_user', { id: owner.id, email_verified: true }, admin)).status, 200);
    const org = await organization('proven-corp', 'proven-corp.example');
    upstream.accounts.set('cfo', { email: 'cfo@proven-corp.example', email_verified: true });

    assert.equal((await ssoSignIn(org.name, 'cfo')).location, `${APP}?state=s`);
    assert.equal((await api.post('/v1/login', { email: 'cfo@proven-corp.example', password: PASSWORD })).status, 200, 'the owner keeps the password');
    assert.equal((await api.get('/v1/profile', owner.bearer)).status, 200, "the owner's session goes on");
  });

  test('without a verified domain the IdP neither links nor takes over: the account stays as it was', async () => {
    await signUp('cto@unverified-corp.example');
    const org = await organization('unverified-corp', undefined);
    upstream.accounts.set('cto', { email: 'cto@unverified-corp.example', email_verified: true });

    const refused = await ssoSignIn(org.name, 'cto');
    assert.equal(refused.status, 409, refused.body.slice(0, 300));
    assert.equal((await api.post('/v1/login', { email: 'cto@unverified-corp.example', password: PASSWORD })).status, 200);
  });
});
