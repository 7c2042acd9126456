/**
 * Login UI: the email-first sign-in of home-realm discovery (docs/api-overview.md#what-portcullis-does: verified domains route
 * people to their organization's IdP; meta is_org_discovery_enabled). An organization with a verified domain
 * and an OIDC connection to a real OpenID Connect IdP on loopback (`oidc-provider`, test/support/
 * social-oidc-upstream.ts; the server runs with --org-sso-allow-private-addresses=true so it may reach it).
 * An application sends its user to /app with redirect_uri and state: the page asks for the email alone; an
 * address elsewhere continues to the password step; an address at the organization's domain is offered
 * "Continue with <organization> SSO", which starts the organization's SSO with the application's
 * redirect_uri and state, passes through the IdP and lands back at the application signed in, state intact.
 */
import { test as base, expect } from '@playwright/test';
import { portcullisFixture, screenshot, uniqueEmail, type Portcullis } from './support/fixtures.ts';
import { adminCall, signUpUser, USER_PASSWORD } from './support/console-fixtures.ts';
import { startOidcUpstream, type OidcUpstream } from '../support/social-oidc-upstream.ts';

const test = base.extend<{ initech: { domain: string; upstream: OidcUpstream } }, { portcullis: Portcullis }>({
  portcullis: [portcullisFixture(['--org-sso-allow-private-addresses=true']), { scope: 'worker', timeout: 60_000 }],
  // One organization per test: its verified domain and its connection to a fresh IdP.
  initech: async ({ portcullis }, use) => {
    const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
    const domain = `initech-${suffix}.example.com`;
    const upstream = await startOidcUpstream({ redirectUri: `${portcullis.url}/sso/oidc/callback`, provider: 'initech' });
    const org = await adminCall(portcullis, 'mutation($p: CreateOrganizationRequest!) { _create_organization(params: $p) { id } }', {
      p: { name: `initech-${suffix}`, display_name: 'Initech' },
    });
    const orgId = org._create_organization.id;
    await adminCall(portcullis, 'mutation($p: OrgDomainRequest!) { _add_verified_org_domain(params: $p) { state } }', { p: { org_id: orgId, domain } });
    await adminCall(portcullis, 'mutation($p: CreateOrgOidcConnectionRequest!) { _create_org_oidc_connection(params: $p) { id } }', {
      p: { org_id: orgId, issuer: upstream.issuer, client_id: upstream.clientId, client_secret: upstream.clientSecret },
    });
    await use({ domain, upstream });
    await adminCall(portcullis, 'mutation($p: DeleteOrganizationRequest!) { _delete_organization(params: $p) { message } }', { p: { id: orgId } });
    await upstream.close();
  },
});

test('an address outside any organization continues to the password step', async ({ page, portcullis, initech }) => {
  expect(initech.domain).toBeTruthy();
  const email = uniqueEmail('outsider');
  await signUpUser(portcullis, email);

  await page.goto(`${portcullis.app.origin}/`);
  await page.locator('#sign-in').click();
  await expect(page).toHaveURL(new RegExp(`^${portcullis.url}/app\\?redirect_uri=`));
  const state = portcullis.app.states.at(-1)!;
  const emailField = page.getByRole('textbox', { name: 'Email or phone number' });
  await expect(emailField).toBeVisible();
  await expect(page.getByLabel(/^Password/)).toHaveCount(0);
  await screenshot(page, 'login-email-first');

  await emailField.fill('not an address');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Enter an email address or a phone number with its country code.')).toBeVisible();
  await emailField.fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  const password = page.getByLabel(/^Password/);
  await expect(password).toBeVisible();
  await expect(password).toBeFocused();
  await expect(page.getByRole('textbox', { name: 'Email or phone number' })).toHaveValue(email);
  await expect(page.getByRole('link', { name: /SSO/ })).toHaveCount(0);
  await password.fill(USER_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.locator('#who')).toHaveText(email);
  expect(new URL(page.url()).searchParams.get('state')).toBe(state);
});

test('an address at the organization’s verified domain signs in through its SSO and returns to the application', async ({ page, portcullis, initech }) => {
  test.setTimeout(90_000);
  const email = `ada-${Date.now().toString(36)}@${initech.domain}`;
  initech.upstream.accounts.set('ada', { email, email_verified: true, given_name: 'Ada' });
  initech.upstream.signInAs('ada');

  await page.goto(`${portcullis.app.origin}/`);
  await page.locator('#sign-in').click();
  const state = portcullis.app.states.at(-1)!;
  await page.getByRole('textbox', { name: 'Email or phone number' }).fill(email.toUpperCase());
  await page.getByRole('button', { name: 'Continue' }).click();

  const sso = page.getByRole('link', { name: 'Continue with Initech SSO' });
  await expect(sso).toBeVisible();
  await expect(page.getByText(`Initech signs in ${email.toUpperCase()} with its own account system.`)).toBeVisible();
  await expect(page.getByLabel(/^Password/)).toHaveCount(0);
  const href = new URL((await sso.getAttribute('href'))!);
  expect(href.origin + href.pathname).toMatch(new RegExp(`^${portcullis.url}/sso/initech-[a-z0-9]+/start$`));
  expect(href.searchParams.get('redirect_uri')).toBe(`${portcullis.app.origin}/callback`);
  expect(href.searchParams.get('state')).toBe(state);
  expect(href.searchParams.get('login_hint')).toBe(email.toUpperCase());
  await screenshot(page, 'login-org-sso-offer');
  // The keyboard lands on the offer, and back on the address after "Use a different email".
  await expect(page.getByRole('link', { name: 'Continue with Initech SSO' })).toBeFocused();

  // "Use a different email" goes back to the first step.
  await page.getByRole('button', { name: 'Use a different email' }).click();
  await expect(page.getByRole('textbox', { name: 'Email or phone number' })).toHaveValue(email.toUpperCase());
  await expect(page.getByRole('textbox', { name: 'Email or phone number' })).toBeFocused();
  await page.getByRole('button', { name: 'Continue' }).click();

  await page.getByRole('link', { name: 'Continue with Initech SSO' }).click();
  await expect(page.locator('#who')).toHaveText(email, { timeout: 30_000 });
  const landed = new URL(page.url());
  expect(landed.origin).toBe(portcullis.app.origin);
  expect(landed.searchParams.get('state')).toBe(state);
  expect([...landed.searchParams.keys()]).toEqual(['state']);
  await screenshot(page, 'login-org-sso-signed-in');
});

// Last in the file: it spends this address's discovery allowance (30 a minute) for the tests after it.
test('when discovery is refused the person can still continue with a password', async ({ page, portcullis, initech }) => {
  const email = uniqueEmail('limited');
  await signUpUser(portcullis, email);
  const lookup = () =>
    fetch(`${portcullis.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: portcullis.url },
      body: JSON.stringify({ query: 'query($p: OrgDiscoveryRequest!) { org_discovery(params: $p) { sso } }', variables: { p: { email: `x@${initech.domain}` } } }),
    }).then((res) => res.json());
  let refused = false;
  for (let i = 0; i < 40 && !refused; i++) refused = Boolean((await lookup()).errors?.length);
  expect(refused).toBe(true);

  await page.goto(`${portcullis.url}/app`);
  await page.getByRole('textbox', { name: 'Email or phone number' }).fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  const failure = page.getByTestId('form-error');
  await expect(failure).toContainText('We could not check your organization');
  await failure.getByRole('button', { name: 'Continue with a password' }).click();
  await page.getByLabel(/^Password/).fill(USER_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('signed-in-email')).toHaveText(email);
});
