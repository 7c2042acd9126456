/**
 * Organization SSO end to end against a real OpenID Connect IdP on loopback (`oidc-provider`), with
 * --org-sso-allow-private-addresses=true so the server may reach it, and --enable-signup=false (an
 * organization's IdP still creates accounts: org-sso/sign-in.ts). Covers the authorization request (PKCE
 * S256, nonce, state, login_hint), the first sign-in creating the account and the membership with
 * user.signup, the second reusing them with user.login, the linking rule (email_verified AND a domain the
 * organization verified), the state's binding (tampered, other browser, replayed), a connection deleted or
 * an organization disabled while a flow is in flight, and the organization claims of the session's tokens.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers } from '../support/org-callers.ts';
import { restClient } from '../support/rest-client.ts';
import { startOidcUpstream, type OidcUpstream } from '../support/social-oidc-upstream.ts';
import { TestBrowser } from '../support/social-browser.ts';
import { createUser, findUserByEmail } from '../../server/modules/users/index.ts';
import { systemClock } from '../../server/kernel/deps.ts';

const APP = 'https://app.example.com/callback';
const CANONICAL = 'http://127.0.0.1:8080';
const CALLBACK = `${CANONICAL}/sso/oidc/callback`;

describe('organization SSO sign-in through an OpenID Connect IdP', () => {
  let upstream: OidcUpstream;
  let server: TestServer;
  let grpc: GrpcTestClient;
  const callers = orgCallers(() => server, () => grpc);
  const { over } = callers;
  let acme: { id: string };

  const browserFor = () => new TestBrowser(server.baseUrl, [upstream.issuer]);
  const startUrl = (org = 'acme', state = 'app-state', extra: Record<string, string> = {}) =>
    `${server.baseUrl}/sso/${org}/start?${new URLSearchParams({ redirect_uri: APP, state, ...extra })}`;
  const sessionOf = (browser: TestBrowser) => restClient(server).post('/v1/session', {}, { cookie: browser.cookieHeader() });

  /** Follows the flow up to (not into) the callback: the URL the IdP sends the browser back to. */
  async function untilCallback(browser: TestBrowser, url: string): Promise<string> {
    let next = url;
    for (let i = 0; i < 20; i++) {
      const hop = await browser.request(next);
      assert.ok(hop.status >= 300 && hop.status < 400 && hop.location, `hop ${i} ${hop.status} ${hop.body?.slice(0, 200)}`);
      if (hop.location!.startsWith(CALLBACK)) return hop.location!;
      next = hop.location!;
    }
    throw new Error('no callback');
  }

  async function connect(orgId: string): Promise<string> {
    const created = await over('rest', 'create_org_oidc_connection', { org_id: orgId, issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret });
    return created.id;
  }

  async function eventsFor(userId: string): Promise<string[]> {
    const rows = await server.app.deps.storage.fork().getConnection().execute('select event_name, payload from events_outbox order by created_at, id');
    return rows.filter((row: any) => JSON.parse(typeof row.payload === 'string' ? row.payload : JSON.stringify(row.payload)).user?.id === userId).map((row: any) => row.event_name);
  }

  let metaBefore: boolean;
  before(async () => {
    upstream = await startOidcUpstream({ redirectUri: CALLBACK, provider: 'acme' });
    server = await startServer(['--allowed-origins', '*,https://app.example.com', '--org-sso-allow-private-addresses=true', '--enable-signup=false']);
    grpc = createGrpcClient(server.ports.grpc!);
    acme = await over('rest', 'create_organization', { name: 'acme', display_name: 'Acme Corp' });
    await over('rest', 'add_verified_org_domain', { org_id: acme.id, domain: 'acme-corp.com' });
    metaBefore = (await restClient(server).get('/v1/meta')).body.is_org_discovery_enabled;
    await connect(acme.id);
    upstream.accounts.set('ada', { email: 'Ada@Acme-Corp.com', email_verified: true, given_name: 'Ada' });
    upstream.accounts.set('grace', { email: 'grace@acme-corp.com', email_verified: true });
    upstream.accounts.set('eve', { email: 'eve@acme-corp.com', email_verified: false });
    upstream.accounts.set('bob', { email: 'bob@elsewhere.com', email_verified: true });
    upstream.accounts.set('newbie', { email: 'newbie@elsewhere.com', email_verified: true });
  });
  after(async () => {
    grpc?.close();
    await server?.close();
    await upstream?.close();
  });

  test('meta reports home-realm discovery once an organization has a verified domain and a connection', async () => {
    assert.equal(metaBefore, false);
    const meta = await restClient(server).get('/v1/meta');
    assert.equal(meta.body.is_org_discovery_enabled, true);
  });

  test('org_discovery answers domain-level facts over the three protocols, anonymously', async () => {
    for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
      const hit = await over(protocol, 'org_discovery', { email: 'someone.unknown@ACME-corp.com' }, 'anonymous');
      assert.deepEqual(hit, { sso: true, organization: 'acme', display_name: 'Acme Corp', sso_url: `${CANONICAL}/sso/acme/start` });
      const miss = await over(protocol, 'org_discovery', { email: 'someone@elsewhere.com' }, 'anonymous');
      assert.deepEqual(miss, { sso: false });
      const bad = await callers.call(protocol, 'org_discovery', { email: 'no-domain' }, 'anonymous');
      assert.equal('error' in bad && bad.error, 'invalid_argument');
    }
    // A verified domain without a connection routes nowhere and names nothing.
    const quiet = await over('rest', 'create_organization', { name: 'quiet' });
    await over('rest', 'add_verified_org_domain', { org_id: quiet.id, domain: 'quiet-corp.com' });
    assert.deepEqual(await over('rest', 'org_discovery', { email: 'a@quiet-corp.com' }, 'anonymous'), { sso: false });
  });

  test('the start sends the browser to the IdP with PKCE S256, a nonce, the state and the login hint', async () => {
    const hop = await browserFor().request(startUrl('acme', 's', { login_hint: 'ada@acme-corp.com' }));
    assert.equal(hop.status, 302);
    const location = new URL(hop.location!);
    assert.equal(location.origin, upstream.issuer);
    assert.equal(location.searchParams.get('client_id'), upstream.clientId);
    assert.equal(location.searchParams.get('redirect_uri'), CALLBACK);
    assert.equal(location.searchParams.get('response_type'), 'code');
    assert.equal(location.searchParams.get('scope'), 'openid email profile');
    assert.equal(location.searchParams.get('code_challenge_method'), 'S256');
    assert.match(location.searchParams.get('code_challenge')!, /^[A-Za-z0-9_-]{43}$/);
    assert.match(location.searchParams.get('nonce')!, /^[A-Za-z0-9_-]{32}$/);
    assert.match(location.searchParams.get('state')!, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(location.searchParams.get('state'), 's', 'the application state stays here');
    assert.equal(location.searchParams.get('login_hint'), 'ada@acme-corp.com');
    assert.ok(hop.setCookies.some((c) => /^portcullis_sso=.+HttpOnly/i.test(c) && /SameSite=Lax/i.test(c)));
  });

  test('the start refuses unknown organizations and targets that are not allowed, without redirecting', async () => {
    const unknown = await browserFor().request(startUrl('no-such-org'));
    assert.equal(unknown.status, 404);
    assert.equal(unknown.location, undefined);
    const evil = await browserFor().request(`${server.baseUrl}/sso/acme/start?${new URLSearchParams({ redirect_uri: 'https://evil.example.net/', state: 's' })}`);
    assert.equal(evil.status, 400);
    assert.equal(evil.location, undefined);
    assert.match(evil.body!, /does not allow/);
  });

  test('a first sign-in creates the account (signup closed or not) and the membership, with verified email and org claims', async () => {
    upstream.signInAs('ada');
    const browser = browserFor();
    const landing = await browser.navigate(startUrl('acme', 'first'));
    assert.equal(landing.status, 302, `${landing.body.slice(0, 300)} ${JSON.stringify(landing.hops.map((h) => [h.status, h.url]))}`);
    assert.equal(landing.location, `${APP}?state=first`);
    // Read before /v1/session, which records a login of its own.
    const created = await findUserByEmail(server.app.deps.storage.fork(), 'ada@acme-corp.com');
    // Rows of one transaction share their created_at: compared as a set.
    assert.deepEqual((await eventsFor(created!.id)).sort(), ['user.created', 'user.login', 'user.signup']);
    const session = await sessionOf(browser);
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.user.email, 'ada@acme-corp.com');
    assert.equal(session.body.user.email_verified, true, 'the IdP is authoritative for its verified domain');
    assert.equal(session.body.user.given_name, 'Ada');
    assert.equal(session.body.user.signup_methods, 'org_sso');
    const members = await over('rest', 'org_members', { org_id: acme.id });
    const member = members.members.find((m: any) => m.user_id === session.body.user.id);
    assert.ok(member, 'the user became a member');
    assert.deepEqual(member.roles, []);
    const access = decodeJwt(session.body.access_token);
    assert.equal(access.org_id, acme.id);
    assert.equal(access.org_name, 'acme');
    assert.deepEqual(access.org_roles, []);
    const id = decodeJwt(session.body.id_token);
    assert.equal(id.org_id, acme.id);
    assert.deepEqual(id.amr, ['fed']);
  });

  test('a second sign-in reuses the account, keeps the member\'s roles and carries them in the tokens', async () => {
    const ada = await findUserByEmail(server.app.deps.storage.fork(), 'ada@acme-corp.com');
    await over('rest', 'add_org_member', { org_id: acme.id, user_id: ada!.id, roles: ['editor'] });
    const logins = async () => (await eventsFor(ada!.id)).filter((e) => e === 'user.login').length;
    const loginsBefore = await logins();
    upstream.signInAs('ada');
    const browser = browserFor();
    const landing = await browser.navigate(startUrl('acme', 'again'));
    assert.equal(landing.location, `${APP}?state=again`);
    assert.equal(await logins(), loginsBefore + 1, 'the callback records user.login');
    const session = await sessionOf(browser);
    assert.equal(session.body.user.id, ada!.id);
    assert.deepEqual(decodeJwt(session.body.access_token).org_roles, ['editor']);
    const members = await over('rest', 'org_members', { org_id: acme.id });
    assert.deepEqual(members.members.find((m: any) => m.user_id === ada!.id).roles, ['editor']);
    const events = await eventsFor(ada!.id);
    assert.equal(events.filter((e) => e === 'user.signup').length, 1, 'no second signup');
    assert.equal(events.filter((e) => e === 'user.created').length, 1, 'no second account');
  });

  test('an existing account is linked when the IdP asserts the address verified in a domain the organization verified', async () => {
    const grace = await createUser(server.app.deps.storage.fork(), systemClock, { email: 'grace@acme-corp.com', signupMethods: ['basic_auth'], roles: ['user'] });
    upstream.signInAs('grace');
    const browser = browserFor();
    const landing = await browser.navigate(startUrl('acme', 'link'));
    assert.equal(landing.location, `${APP}?state=link`);
    assert.equal((await sessionOf(browser)).body.user.id, grace.id);
  });

  test('an unverified email, or a domain the organization has not verified, is never linked to an existing account', async () => {
    await createUser(server.app.deps.storage.fork(), systemClock, { email: 'eve@acme-corp.com', signupMethods: ['basic_auth'], roles: ['user'], emailVerifiedAt: new Date(), emailVerifiedVia: 'link' });
    await createUser(server.app.deps.storage.fork(), systemClock, { email: 'bob@elsewhere.com', signupMethods: ['basic_auth'], roles: ['user'], emailVerifiedAt: new Date(), emailVerifiedVia: 'link' });
    for (const subject of ['eve', 'bob']) {
      upstream.signInAs(subject);
      const browser = browserFor();
      const landing = await browser.navigate(startUrl('acme', subject));
      assert.equal(landing.status, 409, subject);
      assert.equal(landing.location, undefined);
      assert.equal((await sessionOf(browser)).status, 401, `${subject}: no session`);
    }
  });

  test('no account is made for an address outside the organization\'s verified domains, or one the IdP did not confirm', async () => {
    upstream.accounts.set('stray', { email: 'stray@acme-corp.com', email_verified: false });
    for (const [subject, email] of [['newbie', 'newbie@elsewhere.com'], ['stray', 'stray@acme-corp.com']]) {
      upstream.signInAs(subject!);
      const browser = browserFor();
      const landing = await browser.navigate(startUrl('acme', subject!));
      assert.equal(landing.status, 403, subject);
      assert.equal(landing.location, undefined);
      assert.equal((await sessionOf(browser)).status, 401, `${subject}: no session`);
      assert.equal(await findUserByEmail(server.app.deps.storage.fork(), email!), null, `${subject}: no account`);
    }
  });

  test('a tampered state, another browser and a replayed callback are refused; the real browser still finishes', async () => {
    upstream.signInAs('ada');
    const browser = browserFor();
    const callback = await untilCallback(browser, startUrl('acme', 'bound'));
    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${tampered.searchParams.get('state')!.slice(0, -2)}xx`);
    const forged = await browser.request(tampered.toString());
    assert.equal(forged.status, 400);
    assert.match(forged.body!, /unknown, was already used or has expired/);
    const thief = await browserFor().request(callback);
    assert.equal(thief.status, 400);
    assert.match(thief.body!, /another browser/);
    assert.equal(thief.location, undefined);
    const real = await browser.request(callback);
    assert.equal(real.status, 302);
    assert.equal(real.location, `${APP}?state=bound`);
    const replay = await browser.request(callback);
    assert.equal(replay.status, 400);
    assert.match(replay.body!, /already used/);
  });

  test('an authorization response naming another issuer is refused (RFC 9207)', async () => {
    upstream.signInAs('ada');
    const browser = browserFor();
    const callback = new URL(await untilCallback(browser, startUrl('acme', 'mixup')));
    assert.equal(callback.searchParams.get('iss'), upstream.issuer, 'the IdP names itself');
    callback.searchParams.set('iss', 'https://evil.example.net');
    const hop = await browser.request(callback.toString());
    assert.equal(hop.status, 400);
    assert.match(hop.body!, /another sign-in service/);
    assert.equal((await sessionOf(browser)).status, 401);
  });

  test('a connection deleted while a flow is in flight stops it, and stops new ones', async () => {
    const beta = await over('rest', 'create_organization', { name: 'beta' });
    const connectionId = await connect(beta.id);
    upstream.signInAs('ada');
    const browser = browserFor();
    const callback = await untilCallback(browser, startUrl('beta', 'inflight'));
    await over('rest', 'delete_org_oidc_connection', { id: connectionId });
    const hop = await browser.request(callback);
    assert.ok(hop.status === 400 || hop.status === 403, `${hop.status}`);
    assert.equal(hop.location, undefined);
    assert.equal((await sessionOf(browser)).status, 401);
    assert.equal((await browserFor().request(startUrl('beta'))).status, 404);
  });

  test('a disabled organization or connection refuses at the start and at the callback', async () => {
    const gamma = await over('rest', 'create_organization', { name: 'gamma' });
    const connectionId = await connect(gamma.id);
    upstream.signInAs('ada');
    const browser = browserFor();
    const callback = await untilCallback(browser, startUrl('gamma', 'disabled'));
    await over('rest', 'update_organization', { id: gamma.id, enabled: false });
    const hop = await browser.request(callback);
    assert.equal(hop.status, 403);
    assert.equal(hop.location, undefined);
    assert.equal((await sessionOf(browser)).status, 401);
    assert.equal((await browserFor().request(startUrl('gamma'))).status, 404);

    await over('rest', 'update_organization', { id: gamma.id, enabled: true });
    const again = browserFor();
    const pending = await untilCallback(again, startUrl('gamma', 'conn-off'));
    await over('rest', 'update_org_oidc_connection', { id: connectionId, enabled: false });
    assert.equal((await again.request(pending)).status, 403);
    assert.equal((await browserFor().request(startUrl('gamma'))).status, 404);
  });

  test('an IdP refusal returns to the application with error and its state', async () => {
    upstream.signInAs('deny');
    const landing = await browserFor().navigate(startUrl('acme', 'refused'));
    const back = new URL(landing.location!);
    assert.equal(back.origin + back.pathname, APP);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), 'refused');
  });

  test('a member removed from the organization gets no organization claims in the next token', async () => {
    upstream.signInAs('ada');
    const browser = browserFor();
    await browser.navigate(startUrl('acme', 'claims'));
    const ada = await findUserByEmail(server.app.deps.storage.fork(), 'ada@acme-corp.com');
    await over('rest', 'remove_org_member', { org_id: acme.id, user_id: ada!.id });
    const session = await sessionOf(browser);
    assert.equal(session.status, 200);
    assert.equal(decodeJwt(session.body.access_token).org_id, undefined);
  });

  test('repointing a connection to another issuer drops the identity links made under the old one', async () => {
    const connection = await over('rest', 'org_oidc_connection', { org_id: acme.id });
    const count = async () => (await server.app.deps.storage.fork().getConnection().execute('select count(*) as n from org_sso_identities where connection_id = ?', [connection.id]))[0].n;
    assert.ok(Number(await count()) > 0);
    await over('rest', 'update_org_oidc_connection', { id: connection.id, client_id: 'renamed' });
    assert.ok(Number(await count()) > 0, 'another client id keeps them');
    await over('rest', 'update_org_oidc_connection', { id: connection.id, issuer: `${upstream.issuer}/elsewhere` });
    assert.equal(Number(await count()), 0);
  });
});
