/**
 * GET and POST /authorize request handling over real HTTP (docs/api-overview.md#http-endpoints-outside-v1; RFC 6749 sections 4.1.1,
 * 4.1.2.1 and 3.1.2; RFC 7636; RFC 9207; OpenID Connect Core 3.1.2.1): what is never redirected to (an
 * unknown client, an unregistered redirect_uri), what goes back to the client as an error, and where a
 * browser without a session is sent.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, CLIENT_ID, type TestServer } from '../support/app.ts';
import { CALLBACK, authorize, codeFrom, pkcePair, redirectParams, signedInBrowser, type Browser } from './authorize-support.ts';

const ISSUER = 'http://127.0.0.1:8080';

function codeParams(extra: Record<string, string> = {}): Record<string, string> {
  return { client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'code', state: 'xyz', code_challenge: pkcePair().challenge, ...extra };
}

async function expectErrorPage(res: Response): Promise<string> {
  assert.equal(res.status, 400);
  assert.equal(res.headers.get('location'), null, 'never redirected');
  assert.match(res.headers.get('content-type') ?? '', /text\/html/);
  assert.equal(res.headers.get('cache-control'), 'no-store');
  return res.text();
}

function expectClientError(res: Response, error: string, where: 'query' | 'fragment' = 'query'): URLSearchParams {
  const { url, params } = redirectParams(res, where);
  assert.equal(`${url.origin}${url.pathname}`, CALLBACK);
  assert.equal(params.get('error'), error, params.get('error_description') ?? '');
  assert.equal(params.get('iss'), ISSUER, 'RFC 9207 iss on every authorization response');
  return params;
}

describe('/authorize requests', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    server = await startServer(['--redirect-uris', CALLBACK]);
    browser = await signedInBrowser(server);
  });
  after(() => server.close());

  test('discovery advertises the authorization endpoint and exactly what it serves', async () => {
    for (const path of ['/.well-known/openid-configuration', '/.well-known/oauth-authorization-server']) {
      const doc = (await (await fetch(server.baseUrl + path)).json()) as Record<string, unknown>;
      assert.equal(doc.authorization_endpoint, `${ISSUER}/authorize`, path);
      assert.deepEqual(doc.response_types_supported, ['code', 'token']);
      assert.deepEqual(doc.response_modes_supported, ['query', 'fragment', 'form_post', 'web_message']);
      assert.deepEqual(doc.code_challenge_methods_supported, ['S256']);
      assert.ok((doc.grant_types_supported as string[]).includes('authorization_code'));
    }
  });

  test('HEAD is refused (405, Allow: GET, POST): it would issue a code nobody reads', async () => {
    const res = await fetch(`${server.baseUrl}/authorize?${new URLSearchParams(codeParams())}`, {
      method: 'HEAD', redirect: 'manual', headers: { cookie: browser.cookie },
    });
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'GET, POST');
    assert.equal(res.headers.get('location'), null);
  });

  test('an unknown or missing client_id is an error page, never a redirect', async () => {
    await expectErrorPage(await authorize(server, codeParams({ client_id: 'nobody' }), browser.cookie));
    const { client_id: _c, ...withoutClient } = codeParams();
    await expectErrorPage(await authorize(server, withoutClient, browser.cookie));
  });

  test('an unregistered, missing, lookalike or repeated redirect_uri is an error page, never a redirect', async () => {
    for (const redirect of ['https://evil.example/callback', `${CALLBACK}/`, `${CALLBACK}?x=1`, `${CALLBACK}#f`, 'http://127.0.0.1:3000', 'javascript:alert(1)']) {
      const html = await expectErrorPage(await authorize(server, codeParams({ redirect_uri: redirect }), browser.cookie));
      assert.ok(!html.includes('evil.example'), 'the page does not echo the address');
    }
    const { redirect_uri: _r, ...withoutRedirect } = codeParams();
    await expectErrorPage(await authorize(server, withoutRedirect, browser.cookie));
    const repeated = await fetch(`${server.baseUrl}/authorize?${new URLSearchParams(codeParams())}&redirect_uri=${encodeURIComponent('https://evil.example/')}`, { redirect: 'manual' });
    await expectErrorPage(repeated);
  });

  test('PKCE: a missing challenge, the plain method or a malformed challenge go back as invalid_request', async () => {
    const { code_challenge: _c, ...noChallenge } = codeParams();
    let params = expectClientError(await authorize(server, noChallenge, browser.cookie), 'invalid_request');
    assert.equal(params.get('state'), 'xyz');
    assert.match(params.get('error_description') ?? '', /code_challenge/);
    params = expectClientError(await authorize(server, codeParams({ code_challenge_method: 'plain' }), browser.cookie), 'invalid_request');
    assert.match(params.get('error_description') ?? '', /S256/);
    expectClientError(await authorize(server, codeParams({ code_challenge: 'too-short' }), browser.cookie), 'invalid_request');
  });

  test('a missing state, an unknown response_type, scope or prompt go back to the client', async () => {
    const { state: _s, ...noState } = codeParams();
    const params = expectClientError(await authorize(server, noState, browser.cookie), 'invalid_request');
    assert.equal(params.get('state'), null);
    expectClientError(await authorize(server, codeParams({ response_type: 'id_token' }), browser.cookie), 'unsupported_response_type');
    expectClientError(await authorize(server, codeParams({ scope: 'openid admin' }), browser.cookie), 'invalid_scope');
    expectClientError(await authorize(server, codeParams({ prompt: 'none login' }), browser.cookie), 'invalid_request');
    expectClientError(await authorize(server, codeParams({ response_mode: 'jwt' }), browser.cookie), 'invalid_request');
    expectClientError(await authorize(server, codeParams({ max_age: '-1' }), browser.cookie), 'invalid_request');
  });

  test('tokens are never put in the query: response_type token with response_mode query fails in the fragment', async () => {
    const res = await authorize(server, { client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'token', response_mode: 'query', state: 's', nonce: 'n' }, browser.cookie);
    const params = expectClientError(res, 'invalid_request', 'fragment');
    assert.equal(params.get('state'), 's');
  });

  test('the implicit flow without a nonce is refused (OpenID Connect Core 3.2.2.1)', async () => {
    const res = await authorize(server, { client_id: CLIENT_ID, redirect_uri: CALLBACK, response_type: 'token', state: 's' }, browser.cookie);
    expectClientError(res, 'invalid_request', 'fragment');
  });

  test('prompt=none without a session answers login_required to the client', async () => {
    const params = expectClientError(await authorize(server, codeParams({ prompt: 'none' })), 'login_required');
    assert.equal(params.get('state'), 'xyz');
  });

  test('without a session the browser goes to the login UI, which resumes this request', async () => {
    const query = codeParams();
    const { url, params } = redirectParams(await authorize(server, query));
    assert.equal(`${url.origin}${url.pathname}`, `${ISSUER}/app`, 'built from --url, not the Host header');
    const resume = new URL(params.get('redirect_uri')!);
    assert.equal(`${resume.origin}${resume.pathname}`, `${ISSUER}/authorize`);
    assert.deepEqual(Object.fromEntries(resume.searchParams), query);
    // The login UI accepts that resume URL (its own origin), where it refuses foreign ones.
    const page = await fetch(`${server.baseUrl}${url.pathname}${url.search}`);
    await page.arrayBuffer();
    assert.notEqual(page.status, 400);

    const signup = redirectParams(await authorize(server, codeParams({ screen_hint: 'signup' })));
    assert.equal(signup.url.pathname, '/app/signup');
    const hostile = redirectParams(await fetch(`${server.baseUrl}/authorize?${new URLSearchParams(codeParams())}`, {
      redirect: 'manual', headers: { host: 'evil.example' },
    }));
    assert.equal(hostile.url.origin, ISSUER);
  });

  test('prompt=login sends a signed-in browser to sign in again, clearing its cookies, and resumes without a loop', async () => {
    const res = await authorize(server, codeParams({ prompt: 'login' }), browser.cookie);
    const { params } = redirectParams(res);
    assert.ok(res.headers.getSetCookie().some((c) => /^cookie_session=;/.test(c)), 'session cookie cleared');
    const resume = new URL(params.get('redirect_uri')!);
    assert.equal(resume.searchParams.get('prompt'), null);
    const authAfter = Number(resume.searchParams.get('auth_after'));
    assert.ok(authAfter > 0);
    // The old login is older than auth_after only if a second passed; a fresh login always satisfies it.
    const fresh = await signedInBrowser(server);
    const again = await authorize(server, Object.fromEntries(resume.searchParams), fresh.cookie);
    await codeFrom(again, 'xyz');
  });

  test('max_age older than the login sends the browser to sign in again', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const { url } = redirectParams(await authorize(server, codeParams({ max_age: '0' }), browser.cookie));
    assert.equal(url.pathname, '/app');
    await codeFrom(await authorize(server, codeParams({ max_age: '3600' }), browser.cookie), 'xyz');
  });

  test('POST /authorize with a form body works like GET, from another origin', async () => {
    const res = await fetch(`${server.baseUrl}/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.cookie, origin: 'http://127.0.0.1:3000' },
      body: new URLSearchParams(codeParams()).toString(),
    });
    await codeFrom(res, 'xyz');
  });
});

describe('/authorize redirect_uri of the instance client without --redirect-uris', () => {
  test('an explicitly allowed origin is accepted; the bare * allows nothing', async () => {
    const listed = await startServer(['--allowed-origins', 'http://127.0.0.1:3000']);
    const open = await startServer([]);
    try {
      const b1 = await signedInBrowser(listed);
      await codeFrom(await authorize(listed, codeParams(), b1.cookie), 'xyz');
      await expectErrorPage(await authorize(listed, codeParams({ redirect_uri: 'http://127.0.0.1:3001/callback' }), b1.cookie));
      const b2 = await signedInBrowser(open);
      await expectErrorPage(await authorize(open, codeParams(), b2.cookie));
    } finally {
      await listed.close();
      await open.close();
    }
  });
});

describe('/authorize per-IP rate limit', () => {
  test('a burst from one address is refused with 429 and Retry-After, never redirected', async () => {
    const limited = await startServer(['--redirect-uris', CALLBACK, '--rate-limit-rps', '1', '--rate-limit-burst', '0']);
    try {
      const statuses: number[] = [];
      let refusal: Response | undefined;
      for (let i = 0; i < 5; i++) {
        const res = await authorize(limited, codeParams());
        await res.arrayBuffer();
        statuses.push(res.status);
        if (res.status === 429) refusal ??= res;
      }
      assert.ok(refusal, `statuses ${statuses.join(',')}`);
      assert.ok(Number(refusal.headers.get('retry-after')) >= 1);
      assert.equal(refusal.headers.get('location'), null);
    } finally {
      await limited.close();
    }
  });
});
