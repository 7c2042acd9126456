/**
 * --<provider>-base-url (config/parse.ts): only an absolute http(s) URL without credentials, query or
 * fragment is accepted, kept without a trailing slash; a provider is enabled by its client id alone, and
 * meta reports exactly the enabled ones.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, parseConfig } from '../../server/config/parse.ts';
import { baseFlags, startServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';

const dir = mkdtempSync(join(tmpdir(), 'portcullis-social-flags-'));
const parse = (...extra: string[]) => parseConfig([...baseFlags(dir), ...extra]);

test('a base URL must be absolute http(s) without credentials, query or fragment', () => {
  for (const bad of ['ftp://upstream.example', 'localhost:9000', '/relative', 'http://user:pw@upstream.example', 'https://upstream.example/?x=1', 'https://upstream.example/#f', 'not a url']) {
    assert.throws(() => parse('--github-client-id', 'id', '--github-base-url', bad), ConfigError, bad);
  }
  const config = parse('--github-client-id', 'id', '--github-base-url', 'http://127.0.0.1:9000/prefix/', '--google-client-id', 'g', '--google-base-url', 'https://idp.example');
  assert.equal(config.social.github?.baseUrl, 'http://127.0.0.1:9000/prefix');
  assert.equal(config.social.google?.baseUrl, 'https://idp.example');
  assert.equal(parse('--github-client-id', 'id').social.github?.baseUrl, undefined);
  rmSync(dir, { recursive: true, force: true });
});

test('meta reports the providers that have a client id', async () => {
  const server = await startServer(['--github-client-id', 'id', '--github-client-secret', 'secret', '--microsoft-client-id', 'm']);
  try {
    const meta = await restClient(server).get('/v1/meta');
    assert.equal(meta.status, 200, JSON.stringify(meta.body));
    assert.equal(meta.body.is_github_login_enabled, true);
    assert.equal(meta.body.is_microsoft_login_enabled, true);
    assert.equal(meta.body.is_google_login_enabled, false);
  } finally {
    await server.close();
  }
});
