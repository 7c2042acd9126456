/**
 * Resource limits of /scim/v2/ and the cost of the feature to a server that never uses it: the per-token
 * request allowance (modules/limits scim_request: 1,200 a minute per endpoint token, whatever the IP) answers
 * 429 in the SCIM error shape with Retry-After, and leaves another organization's token alone; the filter
 * parser (scim2-parse-filter) is not loaded when a server starts (the child of test/http/lazy-start.test.ts).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startServer, type TestServer } from '../support/app.ts';
import { assertScimError, orgWithScim, scimClient } from './support.ts';

describe('SCIM limits', () => {
  let server: TestServer;
  let busy: { token: string };
  let quiet: { token: string };
  before(async () => {
    server = await startServer();
    busy = await orgWithScim(server, ['busy.example']);
    quiet = await orgWithScim(server, ['quiet.example']);
  });
  after(async () => server?.close());

  test('a token past its allowance gets 429 with Retry-After; another token is unaffected', async () => {
    const scim = scimClient(() => server, () => busy.token);
    let refused;
    for (let i = 0; i < 1300 && !refused; i += 50) {
      const answers = await Promise.all(Array.from({ length: 50 }, () => scim('GET', '/ServiceProviderConfig')));
      refused = answers.find((a) => a.status === 429);
      if (i < 1150) assert.ok(answers.every((a) => a.status === 200), `refused before the allowance was spent (batch at ${i})`);
    }
    assert.ok(refused, 'the 1,201st request in a minute is refused');
    assertScimError(refused, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal((await scimClient(() => server, () => quiet.token)('GET', '/ServiceProviderConfig')).status, 200);
  });

  test('discovery documents describe what the service does', async () => {
    const scim = scimClient(() => server, () => quiet.token);
    const config = await scim('GET', '/ServiceProviderConfig');
    assert.deepEqual([config.body.patch.supported, config.body.filter.supported, config.body.filter.maxResults, config.body.etag.supported, config.body.bulk.supported], [true, true, 1000, true, false]);
    const types = await scim('GET', '/ResourceTypes');
    assert.deepEqual(types.body.Resources.map((r: any) => r.endpoint), ['/Users', '/Groups']);
    const schemas = await scim('GET', '/Schemas');
    assert.equal(schemas.body.totalResults, 3);
    const user = await scim('GET', '/Schemas/urn:ietf:params:scim:schemas:core:2.0:User');
    assert.equal(user.body.attributes.find((a: any) => a.name === 'userName').uniqueness, 'server');
    assertScimError(await scim('GET', '/Schemas/urn:unknown'), 404);
    assertScimError(await scim('GET', '/Bulk'), 404);
  });
});

test('a started server has not loaded the SCIM filter parser', () => {
  const child = join(import.meta.dirname, '..', 'support', 'loaded-at-start.ts');
  const stdout = execFileSync(process.execPath, [child], { encoding: 'utf8', timeout: 60_000 });
  const loaded = JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
  assert.ok(loaded.some((url) => url.includes('/node_modules/fastify/')), 'the recording saw the server start');
  assert.deepEqual(loaded.filter((url) => url.includes('/node_modules/scim2-parse-filter/')), []);
});
