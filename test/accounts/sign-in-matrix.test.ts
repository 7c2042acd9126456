/**
 * Every way in against every account state (accounts/sign-in-policy.ts, the one sign-in policy point):
 * password, phone and password, signup, an emailed link, a texted code, social sign-in, organization SSO
 * and a passkey, each tried on an account that is revoked, deactivated, MFA-locked, unverified where the
 * instance requires verification, without a factor under --enforce-mfa, and a member of a disabled
 * organization. Each cell's first factor is real: the link and the code come from the SMTP and SMS sinks,
 * the social and organization sign-ins from a loopback OpenID Connect upstream, the passkey from a software
 * authenticator. The state is set after the first factor was prepared (a link sent, a passkey registered, an
 * upstream identity linked), so each cell tests the decision at the policy, not an earlier refusal.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as admin } from '../support/admin-client.ts';
import { cookieValue, restClient, type RestReply } from '../support/rest-client.ts';
import { startSmtpSink, firstLink, type SmtpSink } from '../support/smtp-sink.ts';
import { startSmsSink, type SmsSink } from '../support/sms-sink.ts';
import { startOidcUpstream, type OidcUpstream } from '../support/social-oidc-upstream.ts';
import { TestBrowser, type Landing } from '../support/social-browser.ts';
import { SoftAuthenticator } from '../support/soft-authenticator.ts';
import { User } from '../../server/modules/users/index.ts';

const PASSWORD = 'Str0ng!pass-matrix';
const APP = 'https://app.example.com/callback';
const ORIGIN = 'http://127.0.0.1:8080';

type Strategy = 'password' | 'phone_password' | 'signup' | 'email_link' | 'texted_code' | 'social' | 'org_sso' | 'passkey';
type State = 'active' | 'revoked' | 'deactivated' | 'mfa_locked' | 'unverified' | 'enforced_mfa_without_factor' | 'disabled_organization_member';
type Outcome = 'signed_in' | 'gated' | 'refused';

const STRATEGIES: readonly Strategy[] = ['password', 'phone_password', 'signup', 'email_link', 'texted_code', 'social', 'org_sso', 'passkey'];
const STATES: readonly State[] = ['active', 'revoked', 'deactivated', 'mfa_locked', 'unverified', 'enforced_mfa_without_factor', 'disabled_organization_member'];

/** What the policy must decide; undefined where a state cannot arise for a strategy. */
function expected(strategy: Strategy, state: State): Outcome | undefined {
  if (strategy === 'signup') return state === 'active' ? 'signed_in' : state === 'enforced_mfa_without_factor' ? 'gated' : undefined;
  switch (state) {
    case 'active':
      return 'signed_in';
    case 'revoked':
    case 'deactivated':
    case 'mfa_locked':
      return 'refused';
    case 'unverified':
      // A password or a passkey needs the address the instance requires verified; a link or a code proves it,
      // and an upstream's word is its own.
      return ['password', 'phone_password', 'passkey'].includes(strategy) ? 'refused' : 'signed_in';
    case 'enforced_mfa_without_factor':
      // A passkey is itself a factor: its owner is never without one.
      return strategy === 'passkey' ? undefined : 'gated';
    case 'disabled_organization_member':
      return strategy === 'org_sso' ? 'refused' : 'signed_in';
  }
}

function outcomeOf(reply: RestReply): Outcome {
  if (reply.status === 200 && typeof reply.body.access_token === 'string') return 'signed_in';
  if (reply.status === 200 && cookieValue(reply.cookies, 'mfa')) return 'gated';
  assert.ok(reply.status >= 400, `neither signed in, gated nor refused: ${reply.status} ${JSON.stringify(reply.body)}`);
  return 'refused';
}

function landingOutcome(landing: Landing, state: string): Outcome {
  if (landing.location === `${APP}?state=${state}`) return 'signed_in';
  if (landing.hops.some((hop) => hop.location?.includes('/app/mfa'))) return 'gated';
  assert.ok(landing.status >= 400, `neither signed in, gated nor refused: ${landing.status} ${landing.location ?? landing.body.slice(0, 200)}`);
  return 'refused';
}

interface Fixture {
  server: TestServer;
  api: ReturnType<typeof restClient>;
}

describe('every sign-in strategy against every account state', () => {
  let smtp: SmtpSink;
  let sms: SmsSink;
  let upstream: OidcUpstream;
  let orgUpstream: OidcUpstream;
  const fixtures = new Map<'plain' | 'enforced', Fixture>();
  let serial = 0;

  async function startFixture(extra: string[]): Promise<Fixture> {
    const server = await startServer([
      ...smtp.flags(),
      ...sms.flags(),
      ...upstream.flags(),
      '--enable-email-verification=true', '--enable-phone-verification=true', '--enable-magic-link-login=true',
      '--allowed-origins', '*,https://app.example.com', '--org-sso-allow-private-addresses=true',
      ...extra,
    ]);
    return { server, api: restClient(server) };
  }

  before(async () => {
    smtp = await startSmtpSink();
    sms = await startSmsSink();
    upstream = await startOidcUpstream({ redirectUri: `${ORIGIN}/oauth_callback/google` });
    orgUpstream = await startOidcUpstream({ redirectUri: `${ORIGIN}/sso/oidc/callback`, provider: 'matrix-idp' });
    fixtures.set('plain', await startFixture([]));
    fixtures.set('enforced', await startFixture(['--enforce-mfa=true']));
  });
  after(async () => {
    for (const fixture of fixtures.values()) await fixture.server.close();
    await upstream?.close();
    await orgUpstream?.close();
    await sms?.close();
    await smtp?.close();
  });

  /** An organization with its verified domain and OIDC connection; `members` are added to it. */
  async function organization(f: Fixture, name: string, domain: string) {
    const org = await f.api.post('/v1/admin/create_organization', { name }, admin);
    assert.equal(org.status, 200, JSON.stringify(org.body));
    await f.api.post('/v1/admin/add_verified_org_domain', { org_id: org.body.id, domain }, admin);
    const connection = await f.api.post('/v1/admin/create_org_oidc_connection', { org_id: org.body.id, issuer: orgUpstream.issuer, client_id: orgUpstream.clientId, client_secret: orgUpstream.clientSecret }, admin);
    assert.equal(connection.status, 200, JSON.stringify(connection.body));
    return org.body as { id: string; name: string };
  }

  /** An account with an email and a phone number, both proven by the administrator unless `unprovenPhone`. */
  async function account(f: Fixture, email: string, phone: string, options: { unprovenPhone?: boolean } = {}) {
    const signup = await f.api.post('/v1/signup', { email, phone_number: phone, password: PASSWORD, confirm_password: PASSWORD });
    assert.equal(signup.status, 200, JSON.stringify(signup.body));
    const id = signup.body.user.id as string;
    const verified = await f.api.post('/v1/admin/update_user', { id, email_verified: true, ...(options.unprovenPhone ? {} : { phone_number_verified: true }) }, admin);
    assert.equal(verified.status, 200, JSON.stringify(verified.body));
    return id;
  }

  async function setState(f: Fixture, userId: string, state: State, cell: string): Promise<void> {
    const em = f.server.app.deps.storage.fork();
    const now = new Date();
    if (state === 'revoked') await em.nativeUpdate(User, { id: userId }, { revokedAt: now });
    if (state === 'deactivated') await em.nativeUpdate(User, { id: userId }, { deactivatedAt: now });
    if (state === 'mfa_locked') await em.nativeUpdate(User, { id: userId }, { mfaLockedAt: now });
    if (state === 'unverified') await em.nativeUpdate(User, { id: userId }, { emailVerifiedAt: null, emailVerifiedVia: null, phoneNumberVerifiedAt: null });
    if (state === 'disabled_organization_member') {
      const org = await organization(f, `off-${cell}`, `${cell}.disabled.example`);
      assert.equal((await f.api.post('/v1/admin/add_org_member', { org_id: org.id, user_id: userId }, admin)).status, 200);
      assert.equal((await f.api.post('/v1/admin/update_organization', { id: org.id, enabled: false }, admin)).status, 200);
    }
  }

  /** Prepares the first factor for an account, sets the state, then completes the factor. */
  async function attempt(f: Fixture, strategy: Strategy, state: State): Promise<Outcome> {
    const cell = `${strategy}-${state}-${++serial}`.replaceAll('_', '-');
    const email = `${cell}@matrix.example`;
    const phone = `+1555${String(1_000_000 + serial).slice(1)}`;
    switch (strategy) {
      case 'signup': {
        // With verification on, a signup waits for its link; the instance's enforced offer comes first.
        const reply = await f.api.post('/v1/signup', { email, password: PASSWORD, confirm_password: PASSWORD });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        const link = await smtp.waitFor((m) => m.envelope.to.includes(email));
        const token = new URL(firstLink(link.text)!).searchParams.get('token')!;
        return outcomeOf(await f.api.post('/v1/verify_email', { token }));
      }
      case 'password':
      case 'phone_password': {
        const id = await account(f, email, phone);
        await setState(f, id, state, cell);
        return outcomeOf(await f.api.post('/v1/login', strategy === 'password' ? { email, password: PASSWORD } : { phone_number: phone, password: PASSWORD }));
      }
      case 'email_link': {
        const id = await account(f, email, phone);
        assert.equal((await f.api.post('/v1/magic_link_login', { email })).status, 200);
        const mail = await smtp.waitFor((m) => m.envelope.to.includes(email));
        const token = new URL(firstLink(mail.text)!).searchParams.get('token')!;
        await setState(f, id, state, cell);
        return outcomeOf(await f.api.post('/v1/verify_email', { token }));
      }
      case 'texted_code': {
        const id = await account(f, email, phone, { unprovenPhone: true });
        const before = sms.requests.length;
        assert.equal((await f.api.post('/v1/resend_otp', { phone_number: phone })).status, 200);
        const text = await until(() => sms.requests.slice(before).find((r) => r.form.To === phone));
        const otp = /\b(\d{6})\b/.exec(text.form.Body!)![1]!;
        await setState(f, id, state, cell);
        return outcomeOf(await f.api.post('/v1/verify_otp', { phone_number: phone, otp }));
      }
      case 'passkey': {
        const id = await account(f, email, phone);
        const login = await f.api.post('/v1/login', { email, password: PASSWORD });
        const bearer = { authorization: `Bearer ${login.body.access_token}` };
        const authenticator = new SoftAuthenticator(ORIGIN);
        const options = await f.api.post('/v1/webauthn_registration_options', {}, bearer);
        assert.equal((await f.api.post('/v1/webauthn_registration_verify', { credential: authenticator.register(options.body.options) }, bearer)).status, 200);
        await setState(f, id, state, cell);
        const request = await f.api.post('/v1/webauthn_login_options', {});
        return outcomeOf(await f.api.post('/v1/webauthn_login_verify', { credential: authenticator.assert(request.body.options) }));
      }
      case 'social': {
        const id = await account(f, email, phone);
        upstream.accounts.set(cell, { email, email_verified: true });
        const first = await socialSignIn(f, cell, 'first');
        assert.equal(landingOutcome(first, 'first'), f === fixtures.get('enforced') ? 'gated' : 'signed_in', 'the first sign-in links the proven account');
        await setState(f, id, state, cell);
        return landingOutcome(await socialSignIn(f, cell, 'second'), 'second');
      }
      case 'org_sso': {
        const domain = `${cell}.corp.example`;
        const org = await organization(f, `org-${cell}`, domain);
        const address = `member@${domain}`;
        const id = await account(f, address, phone);
        orgUpstream.accounts.set(cell, { email: address, email_verified: true });
        const first = await ssoSignIn(f, org.name, cell, 'first');
        assert.equal(landingOutcome(first, 'first'), f === fixtures.get('enforced') ? 'gated' : 'signed_in', 'the first sign-in links the proven account');
        if (state === 'disabled_organization_member') {
          assert.equal((await f.api.post('/v1/admin/update_organization', { id: org.id, enabled: false }, admin)).status, 200);
        } else {
          await setState(f, id, state, cell);
        }
        return landingOutcome(await ssoSignIn(f, org.name, cell, 'second'), 'second');
      }
    }
  }

  function socialSignIn(f: Fixture, subject: string, state: string): Promise<Landing> {
    upstream.signInAs(subject);
    return new TestBrowser(f.server.baseUrl, [upstream.issuer]).navigate(`${f.server.baseUrl}/oauth_login/google?${new URLSearchParams({ redirectURL: APP, state })}`);
  }

  function ssoSignIn(f: Fixture, orgName: string, subject: string, state: string): Promise<Landing> {
    orgUpstream.signInAs(subject);
    return new TestBrowser(f.server.baseUrl, [orgUpstream.issuer]).navigate(`${f.server.baseUrl}/sso/${orgName}/start?${new URLSearchParams({ redirect_uri: APP, state })}`);
  }

  test('refusals are audited with their reason, those inside a rolled-back sign-in transaction too', async () => {
    const f = fixtures.get('plain')!;
    assert.equal(await attempt(f, 'passkey', 'mfa_locked'), 'refused');
    assert.equal(await attempt(f, 'social', 'revoked'), 'refused');
    const logs = await f.api.post('/v1/admin/audit_logs', { action: 'user.login_failed', pagination: { limit: 100 } }, admin);
    assert.equal(logs.status, 200, JSON.stringify(logs.body));
    const reasons = (logs.body.audit_logs as Array<{ metadata: string }>).map((entry) => JSON.parse(entry.metadata) as { reason: string; login_method: string });
    assert.ok(reasons.some((r) => r.reason === 'mfa_locked' && r.login_method === 'webauthn'), JSON.stringify(reasons));
    assert.ok(reasons.some((r) => r.reason === 'access_revoked' && r.login_method === 'google'), JSON.stringify(reasons));
  });

  for (const strategy of STRATEGIES) {
    for (const state of STATES) {
      const want = expected(strategy, state);
      if (want === undefined) continue;
      test(`${strategy} × ${state}: ${want}`, async () => {
        const f = fixtures.get(state === 'enforced_mfa_without_factor' ? 'enforced' : 'plain')!;
        assert.equal(await attempt(f, strategy, state), want);
      });
    }
  }
});

async function until<T>(find: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
