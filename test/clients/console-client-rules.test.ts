/**
 * The console checks redirect URIs, post-logout redirect URIs and scopes before sending them
 * (console/src/clients/client-rules.ts); the server stays the authority (server/modules/clients/clients.schema.ts).
 * The two must agree: a value the console lets through and the server refuses shows a late error, and one the
 * console refuses but the server would take blocks a valid registration. Each value below is judged by both.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkedPostLogoutRedirectUris, checkedRedirectUris, checkedScopes } from '../../server/modules/clients/clients.schema.ts';
import { isScopeToken, postLogoutRedirectUriProblem, redirectUriProblem } from '../../console/src/clients/client-rules.ts';

const REDIRECT_URIS = [
  'https://app.example.com/cb',
  'http://127.0.0.1:9000/done',
  'https://app.example.com/cb?x=1&y=2',
  'HTTPS://APP.EXAMPLE.COM/cb',
  'https://[::1]:8443/cb',
  'https://app.example.com/done#top',
  'https://app.example.com/#',
  'https:app.example.com/cb',
  'https:///app.example.com/cb',
  'https:\\\\app.example.com/cb',
  'https://app.example.com\\@evil.example/cb',
  'https://user:pass@app.example.com/cb',
  'https://user@app.example.com/cb',
  'https://app.example.com/a b',
  'https://app.example.com/cb\t',
  'ftp://app.example.com/cb',
  'javascript:alert(1)',
  'app.example.com/cb',
  '/relative/cb',
  'https://',
  'https://app.example.com:99999/cb',
  `https://app.example.com/${'a'.repeat(2100)}`,
];

function serverAccepts(run: () => unknown): boolean {
  try {
    run();
    return true;
  } catch {
    return false;
  }
}

test('console and server agree on every redirect URI', () => {
  for (const uri of REDIRECT_URIS) {
    // The server's length bound is in the request schema (2048), checked before checkedRedirectUris.
    const server = uri.length <= 2048 && serverAccepts(() => checkedRedirectUris([uri]));
    const inConsole = redirectUriProblem(uri) === undefined;
    assert.equal(inConsole, server, `${JSON.stringify(uri)}: console ${inConsole ? 'accepts' : 'refuses'}, server ${server ? 'accepts' : 'refuses'}`);
  }
  assert.deepEqual(redirectUriProblem('https://app.example.com/done#top'), { key: 'fragment' });
  assert.deepEqual(redirectUriProblem('https://user@app.example.com/cb'), { key: 'credentials' });
  assert.deepEqual(redirectUriProblem('https:app.example.com/cb'), { key: 'notHttp' });
});

test('console and server agree on every post-logout redirect URI', () => {
  const loopbackAndPlainHttp = [
    'http://localhost:8000/bye', 'http://LOCALHOST/bye', 'http://127.0.0.1/bye', 'http://127.1.2.3:9/bye', 'http://[::1]:8443/bye',
    'http://app.example.com/bye', 'http://10.0.0.1/bye', 'http://localhost.example.com/bye', 'http://127.0.0.1.example.com/bye', 'http://[::2]/bye',
  ];
  for (const uri of [...REDIRECT_URIS, ...loopbackAndPlainHttp]) {
    const server = uri.length <= 2048 && serverAccepts(() => checkedPostLogoutRedirectUris([uri]));
    const inConsole = postLogoutRedirectUriProblem(uri) === undefined;
    assert.equal(inConsole, server, `${JSON.stringify(uri)}: console ${inConsole ? 'accepts' : 'refuses'}, server ${server ? 'accepts' : 'refuses'}`);
  }
  assert.deepEqual(postLogoutRedirectUriProblem('http://app.example.com/bye'), { key: 'httpsRequired' });
  assert.deepEqual(postLogoutRedirectUriProblem('https://app.example.com/bye#x'), { key: 'fragment' });
  assert.equal(postLogoutRedirectUriProblem('http://127.0.0.1:9000/bye'), undefined);
});

test('console and server agree on every scope', () => {
  const scopes = ['openid', 'invoices:read', 'a,b', 'urn:x:y', 'has space', 'quote"d', 'back\\slash', 'tab\t', 'é', '!', 'x'.repeat(128), 'x'.repeat(129)];
  for (const scope of scopes) {
    const server = scope.length <= 128 && serverAccepts(() => checkedScopes([scope]));
    assert.equal(isScopeToken(scope), server, JSON.stringify(scope));
  }
});
