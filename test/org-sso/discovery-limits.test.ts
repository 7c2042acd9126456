/**
 * Home-realm discovery is public, so each client IP may look up 30 addresses a minute (org_discovery
 * bucket, modules/limits/policies.ts), whatever --rate-limit-rps says; then 429 with Retry-After over REST
 * and RESOURCE_EXHAUSTED over gRPC, and the refusal names neither the address nor the domain.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { orgCallersOnServer } from '../support/org-callers.ts';
import type { GrpcFailure } from '../support/grpc-client.ts';

describe('org_discovery per-IP limit', () => {
  const callers = orgCallersOnServer();
  const { server, grpc } = callers;

  const lookUp = (email: string) => fetch(`${server().baseUrl}/v1/org_discovery`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server().baseUrl },
    body: JSON.stringify({ email }),
  });

  test('30 look-ups a minute pass, the 31st is refused on every protocol without naming the address', async () => {
    for (let i = 0; i < 30; i++) {
      const res = await lookUp(`person${i}@domain${i}.com`);
      assert.equal(res.status, 200, `look-up ${i}`);
      assert.deepEqual(await res.json(), { sso: false });
    }
    const refused = await lookUp('secret-person@secret-domain.com');
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    const body = await refused.text();
    assert.match(body, /too many sign-in look-ups/);
    assert.ok(!body.includes('secret-'), 'the refusal names neither the address nor the domain');
    await assert.rejects(grpc().call('PublicService', 'OrgDiscovery', { email: 'a@b.com' }, {}), (err: GrpcFailure) => err.code === 8);
  });
});
