/**
 * Outbound DNS of verify_org_domain is bounded (the server must not be usable to hammer DNS): a per-
 * organization dns_lookup allowance (10 lookups in 10 minutes, modules/limits/policies.ts) refused before any
 * query leaves, and a 5-second deadline on a resolver that never answers. A resolver's failure (silence,
 * SERVFAIL, nothing listening) is failed_precondition, never a 500, and echoes no resolver error text.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { ADMIN_SECRET, startServer, type TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers } from '../support/org-callers.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { TXT_LOOKUP_TIMEOUT_MS } from '../../server/modules/org-domains/txt-lookup.ts';

const RESOLVER_LEAK = /ETIMEOUT|ESERVFAIL|ECONNREFUSED|ECANCELLED|queryTxt|127\.0\.0\.1/;

describe('DNS lookups of domain verification are bounded', () => {
  let server: TestServer;
  let grpc: GrpcTestClient;
  let dns: TestDnsServer;
  const callers = orgCallers(() => server, () => grpc);
  const { call, over } = callers;
  before(async () => {
    dns = await startDnsServer();
    server = await startServer(['--dns-servers', dns.address]);
    grpc = createGrpcClient(server.ports.grpc!);
  });
  after(async () => {
    grpc?.close();
    await server?.close();
    await dns?.close();
  });

  async function pendingDomain(orgName: string, domain: string) {
    const orgId = (await over('rest', 'create_organization', { name: orgName })).id;
    const challenge = await over('rest', 'request_org_domain', { org_id: orgId, domain });
    return { orgId, challenge };
  }

  test('each organization gets 10 lookups per 10 minutes; the 11th is refused with 429 before any query', async () => {
    const { orgId } = await pendingDomain('hammer', 'hammer.example');
    for (let i = 0; i < 10; i++) {
      const outcome = await call('rest', 'verify_org_domain', { org_id: orgId, domain: 'hammer.example' });
      assert.equal('error' in outcome && outcome.error, 'failed_precondition', `lookup ${i + 1}`);
    }
    const queries = dns.queries.length;
    const res = await fetch(`${server.baseUrl}/v1/admin/verify_org_domain`, {
      method: 'POST',
      headers: { 'x-service-admin-secret': ADMIN_SECRET, origin: server.baseUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ org_id: orgId, domain: 'hammer.example' }),
    });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
    assert.match((await res.json()).message, /too many domain verification attempts/);
    const graphql = await call('graphql', 'verify_org_domain', { org_id: orgId, domain: 'other.hammer.example' });
    assert.ok('error' in graphql && /not requested/.test(graphql.message), 'an unknown domain is answered before the allowance is spent');
    const rpc = await call('grpc', 'verify_org_domain', { org_id: orgId, domain: 'hammer.example' });
    assert.equal('error' in rpc && rpc.error, 'too_many_requests', 'gRPC RESOURCE_EXHAUSTED');
    assert.equal(dns.queries.length, queries, 'refused calls sent no query');

    // Another organization keeps its own allowance, and a published record verifies it.
    const { orgId: neighbour, challenge } = await pendingDomain('neighbour', 'neighbour.example');
    dns.setTxt(challenge.record_name, [challenge.record_value]);
    assert.equal((await over('rest', 'verify_org_domain', { org_id: neighbour, domain: 'neighbour.example' })).state, 'verified');
  });

  test('a SERVFAIL answer is failed_precondition without the resolver error text', async () => {
    const { orgId, challenge } = await pendingDomain('servfail', 'servfail.example');
    dns.setTxt(challenge.record_name, [challenge.record_value]);
    dns.mode = 'servfail';
    try {
      const outcome = await call('rest', 'verify_org_domain', { org_id: orgId, domain: 'servfail.example' });
      assert.ok('error' in outcome);
      assert.equal(outcome.error, 'failed_precondition');
      assert.match(outcome.message, /could not look up the TXT records at _service-challenge\.servfail\.example/);
      assert.doesNotMatch(outcome.message, RESOLVER_LEAK);
    } finally {
      dns.mode = 'answer';
    }
    assert.equal((await over('rest', 'verify_org_domain', { org_id: orgId, domain: 'servfail.example' })).state, 'verified');
  });

  test(`a resolver that never answers is given up after ${TXT_LOOKUP_TIMEOUT_MS / 1000} s: failed_precondition, and the server keeps serving`, async () => {
    const { orgId } = await pendingDomain('silent', 'silent.example');
    dns.mode = 'silent';
    try {
      const started = Date.now();
      const pending = call('graphql', 'verify_org_domain', { org_id: orgId, domain: 'silent.example' });
      // Other requests are served while the lookup waits (no transaction or lock held across it).
      assert.equal((await over('rest', 'org_domains', { org_id: orgId })).domains.length, 1);
      await over('rest', 'request_org_domain', { org_id: orgId, domain: 'meanwhile.example' });
      const outcome = await pending;
      const elapsed = Date.now() - started;
      assert.ok('error' in outcome, JSON.stringify(outcome));
      assert.equal(outcome.error, 'failed_precondition');
      assert.doesNotMatch(outcome.message, RESOLVER_LEAK);
      assert.ok(elapsed >= TXT_LOOKUP_TIMEOUT_MS - 500 && elapsed < TXT_LOOKUP_TIMEOUT_MS + 2000, `gave up after ${elapsed} ms`);
    } finally {
      dns.mode = 'answer';
    }
  });

  test('nothing listening at the configured resolver is failed_precondition too', async () => {
    // A port that was bound and released: nothing answers there (ICMP port unreachable on loopback).
    const probe = createSocket('udp4');
    await new Promise<void>((resolve) => probe.bind(0, '127.0.0.1', () => resolve()));
    const deadPort = probe.address().port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const dead = await startServer(['--dns-servers', `127.0.0.1:${deadPort}`]);
    try {
      const post = (name: string, body: unknown) => adminClient(dead).call(name, body);
      const org = (await post('create_organization', { name: 'dead-resolver' })).body;
      assert.equal((await post('request_org_domain', { org_id: org.id, domain: 'dead.example' })).status, 200);
      const { status, body } = await post('verify_org_domain', { org_id: org.id, domain: 'dead.example' });
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(body.code, 'failed_precondition');
      assert.doesNotMatch(body.message, RESOLVER_LEAK);
    } finally {
      await dead.close();
    }
  });
});
