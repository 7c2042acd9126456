/**
 * Sign in with Apple answers with response_mode=form_post: a cross-site POST from the upstream to
 * /oauth_callback/apple, which carries no SameSite=Lax cookie. The route turns it into a GET of the same
 * callback (a top-level navigation, which does carry it), where state and browser binding are checked as for
 * any provider. Driven against oidc-provider on loopback configured as "apple" (no PKCE, form_post).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { startOidcUpstream } from '../support/social-oidc-upstream.ts';
import { TestBrowser } from '../support/social-browser.ts';

const APP = 'https://app.example.com/callback';

function formOf(html: string): { action: string; fields: Record<string, string> } {
  const action = /<form[^>]*action="([^"]+)"/i.exec(html)?.[1];
  assert.ok(action, html);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/gi)) fields[match[1]!] = match[2]!.replace(/&amp;/g, '&');
  return { action: action.replace(/&amp;/g, '&'), fields };
}

test('apple form_post: the POST becomes a GET of the callback, which signs in this browser only', async () => {
  const upstream = await startOidcUpstream({ redirectUri: 'http://127.0.0.1:8080/oauth_callback/apple', provider: 'apple' });
  const server = await startServer(['--allowed-origins', '*,https://app.example.com', ...upstream.flags()]);
  try {
    upstream.accounts.set('a-1', { email: 'apple-user@example.com', email_verified: true });
    upstream.signInAs('a-1');
    const browser = new TestBrowser(server.baseUrl, [upstream.issuer]);
    const started = await browser.request(`${server.baseUrl}/oauth_login/apple?redirectURL=${encodeURIComponent(APP)}&state=apple-state`);
    const authorize = new URL(started.location!);
    assert.equal(authorize.searchParams.get('response_mode'), 'form_post');
    assert.equal(authorize.searchParams.get('code_challenge'), null, 'no PKCE for Apple');
    assert.equal(authorize.searchParams.get('scope'), 'openid name email');
    const page = await browser.navigate(started.location!);
    assert.equal(page.status, 200, page.body);
    const form = formOf(page.body);
    assert.equal(form.action, 'http://127.0.0.1:8080/oauth_callback/apple');

    // Another browser replaying the posted form gets the GET, and there the binding check refuses it.
    const other = new TestBrowser(server.baseUrl, [upstream.issuer]);
    const replay = await other.navigate(form.action, { method: 'POST', form: form.fields, headers: { origin: upstream.issuer } });
    assert.equal(replay.hops[0]!.status, 303);
    assert.equal(replay.status, 400);

    const landing = await browser.navigate(form.action, { method: 'POST', form: form.fields, headers: { origin: upstream.issuer } });
    assert.equal(landing.hops[0]!.status, 303);
    assert.equal(landing.status, 302, landing.body);
    assert.equal(landing.location, `${APP}?state=apple-state`);
    const session = await restClient(server).post('/v1/session', {}, { cookie: browser.cookieHeader() });
    assert.equal(session.body.user.email, 'apple-user@example.com');
    assert.equal(session.body.user.signup_methods, 'apple');
  } finally {
    await server.close();
    await upstream.close();
  }
});

test('a provider that answers with GET refuses POST on its callback', async () => {
  const server = await startServer(['--github-client-id', 'id', '--github-client-secret', 'secret']);
  try {
    const res = await fetch(`${server.baseUrl}/oauth_callback/github`, {
      method: 'POST', headers: { origin: server.baseUrl, 'content-type': 'application/x-www-form-urlencoded' }, body: 'code=x&state=y', redirect: 'manual',
    });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET');
  } finally {
    await server.close();
  }
});
