/**
 * The page a browser lands on when the login page is opened with a redirect_uri this server does not allow
 * (and every other refusal shown as HTML: html-error-page.ts) looks like the login UI: its own inline style
 * sheet (the gray page, a white card, the indigo accent), still loading nothing and running no script.
 * Before, it was bare text in the browser's default layout.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';

let server: TestServer;
before(async () => {
  server = await startServer();
});
after(() => server?.close());

test('the refused redirect_uri page is styled like the login UI and loads nothing', async () => {
  const res = await fetch(`${server.baseUrl}/app?redirect_uri=https%3A%2F%2Fevil.example%2Fcb&state=x`);
  const html = await res.text();
  assert.equal(res.status, 400);
  assert.match(html, /<style>[^<]*\.card\{background:#fff;[^<]*<\/style>/);
  assert.match(html, /<main>\s*<div class="card">\s*<h1>This sign-in link cannot be used<\/h1>/);
  assert.match(html, /<meta name="viewport"/);
  assert.doesNotMatch(html, /<script|<link|src=|evil\.example/);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /style-src 'unsafe-inline'/);
  assert.doesNotMatch(csp, /script-src/);
});
