/**
 * An application that sends a person to sign in through /authorize is named on the sign-in page by its
 * registered name, not only by the host of its redirect_uri: /authorize sends a browser without a session
 * to /app?redirect_uri={--url}/authorize?client_id=…&redirect_uri=…, and the page load puts the client's name
 * in a <meta name="portcullis:client-name"> tag, which the login UI shows. The name comes from the server's
 * own records, for a client whose redirect_uri is registered (the check /authorize itself makes), never
 * from the URL, so a link cannot make the page claim another application. Needs dist/ui (npm run build).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { CALLBACK, createClient } from '../oauth/authorize-support.ts';

const ISSUER = 'http://127.0.0.1:8080';

describe('the sign-in page of an authorization request names the client', () => {
  let server: TestServer;
  let clientId: string;
  before(async () => {
    server = await startServer(['--allowed-origins', '*']);
    clientId = (await createClient(server, { name: 'Team <Wiki> & Co', redirect_uris: [CALLBACK] })).clientId;
  });
  after(() => server?.close());

  async function page(authorizeQuery: Record<string, string> | undefined, path = '/app'): Promise<{ status: number; html: string }> {
    const resume = authorizeQuery ? `${ISSUER}/authorize?${new URLSearchParams(authorizeQuery).toString()}` : undefined;
    const res = await fetch(`${server.baseUrl}${path}${resume ? `?redirect_uri=${encodeURIComponent(resume)}` : ''}`);
    return { status: res.status, html: await res.text() };
  }

  test('a registered client with its registered redirect_uri: its name, escaped', async () => {
    const { status, html } = await page({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code', scope: 'openid', state: 's' });
    assert.equal(status, 200);
    assert.match(html, /<meta name="portcullis:client-name" content="Team &lt;Wiki&gt; &amp; Co">/);
    const signup = await page({ client_id: clientId, redirect_uri: CALLBACK, response_type: 'code' }, '/app/signup');
    assert.match(signup.html, /portcullis:client-name" content="Team &lt;Wiki&gt; &amp; Co"/);
  });

  test('no name for an unknown client, a redirect_uri it did not register, or no authorization request', async () => {
    for (const query of [
      { client_id: 'no-such-client', redirect_uri: CALLBACK },
      { client_id: clientId, redirect_uri: 'http://127.0.0.1:3000/elsewhere' },
      undefined,
    ]) {
      const { html } = await page(query);
      assert.doesNotMatch(html, /portcullis:client-name/, JSON.stringify(query));
    }
  });
});
