/**
 * Organization domains end to end (docs/api-overview.md#states-and-transitions, "Org domain" states, docs/operations.md, "Org domains";
 * docs/api-overview.md#resources-and-fields, "Domain challenge"): a real server asking a real DNS server on 127.0.0.1 (support/dns-server.ts)
 * through --dns-servers. Request, then verify with the right record (verified and routing), a wrong or missing
 * one (refused, still pending), another organization's record (refused); one verified owner per domain; the
 * super-admin's add without DNS; delete and organization deletion stop the routing at once.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { createGrpcClient, type GrpcTestClient } from '../support/grpc-client.ts';
import { orgCallers, PROTOCOLS } from '../support/org-callers.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { emailDomain, verifiedOrganizationForDomain } from '../../server/modules/org-domains/index.ts';
import { MAX_DOMAINS_PER_ORG } from '../../server/modules/org-domains/org-domains.service.ts';

describe('organization domains', () => {
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

  const routedTo = async (domain: string) => (await verifiedOrganizationForDomain(server.app.deps.storage.fork(), domain))?.id ?? null;
  const createOrg = async (name: string): Promise<string> => (await over('rest', 'create_organization', { name })).id;
  const domainsOf = async (orgId: string) => (await over('rest', 'org_domains', { org_id: orgId })).domains;

  test('request answers the domain challenge of docs/api-overview.md; asking again answers the same record', async () => {
    const orgId = await createOrg('challenge-shape');
    const challenge = await over('rest', 'request_org_domain', { org_id: orgId, domain: 'Shape.Example.COM.' });
    assert.equal(challenge.domain, 'shape.example.com');
    assert.equal(challenge.record_type, 'TXT');
    assert.equal(challenge.record_name, '_service-challenge.shape.example.com');
    assert.match(challenge.record_value, /^service-domain-verification=[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(await over('rest', 'request_org_domain', { org_id: orgId, domain: 'shape.example.com' }), challenge);
    const [listed] = await domainsOf(orgId);
    assert.equal(listed.state, 'pending');
    assert.equal(listed.record_value, challenge.record_value);
    assert.equal(listed.verified_at, undefined);
    const other = await over('rest', 'request_org_domain', { org_id: await createOrg('challenge-other'), domain: 'shape.example.com' });
    assert.notEqual(other.record_value, challenge.record_value, 'each organization gets its own token');
  });

  test('an internationalised domain is stored in its ASCII form', async () => {
    const orgId = await createOrg('idn');
    const challenge = await over('rest', 'request_org_domain', { org_id: orgId, domain: 'Bücher.example' });
    assert.equal(challenge.domain, 'xn--bcher-kva.example');
    assert.deepEqual(await over('rest', 'request_org_domain', { org_id: orgId, domain: 'xn--bcher-kva.example' }), challenge);
  });

  test('malformed domains are refused with invalid_argument', async () => {
    const orgId = await createOrg('bad-input');
    for (const domain of ['com', 'co.uk', '127.0.0.1', '[::1]', '*.example.com', 'a..example.com', '-x.example.com', 'x_y.example.com',
      `${'a'.repeat(64)}.example.com`, `${'abcdefghi.'.repeat(25)}example.com`, 'exa mple.com', 'example.123', ' ', 'http://example.com']) {
      const outcome = await call('rest', 'request_org_domain', { org_id: orgId, domain });
      assert.equal('error' in outcome && outcome.error, 'invalid_argument', `${JSON.stringify(domain)}: ${JSON.stringify(outcome)}`);
    }
    assert.deepEqual(await domainsOf(orgId), []);
  });

  test('verify with the right TXT record (among others, split into chunks) marks the domain verified and routes it', async () => {
    const orgId = await createOrg('acme');
    const challenge = await over('rest', 'request_org_domain', { org_id: orgId, domain: 'acme.example' });
    assert.equal(await routedTo('acme.example'), null, 'a pending domain routes nowhere');
    const value: string = challenge.record_value;
    dns.setTxt(challenge.record_name, ['v=spf1 -all', [value.slice(0, 20), value.slice(20)]]);
    const verified = await over('rest', 'verify_org_domain', { org_id: orgId, domain: 'acme.example' });
    assert.equal(verified.state, 'verified');
    assert.equal(verified.domain, 'acme.example');
    assert.ok(Math.abs(verified.verified_at - Date.now() / 1000) < 60);
    assert.equal(await routedTo('acme.example'), orgId);
    assert.equal(await routedTo(emailDomain('Jane.Doe@ACME.example')!), orgId);
    const again = await call('rest', 'request_org_domain', { org_id: orgId, domain: 'acme.example' });
    assert.equal('error' in again && again.error, 'already_exists');
    // Verifying a verified domain answers it as it is, without asking DNS again.
    dns.clear(challenge.record_name);
    assert.equal((await over('rest', 'verify_org_domain', { org_id: orgId, domain: 'acme.example' })).state, 'verified');
  });

  test('a wrong or missing record refuses with failed_precondition naming the record; the domain stays pending', async () => {
    const orgId = await createOrg('typo');
    const challenge = await over('rest', 'request_org_domain', { org_id: orgId, domain: 'typo.example' });
    const missing = await call('rest', 'verify_org_domain', { org_id: orgId, domain: 'typo.example' });
    assert.ok('error' in missing);
    assert.equal(missing.error, 'failed_precondition');
    assert.ok(missing.message.includes(challenge.record_name) && missing.message.includes(challenge.record_value), missing.message);
    assert.match(missing.message, /no TXT record found/);

    dns.setTxt(challenge.record_name, [`${challenge.record_value.slice(0, -1)}X`, 'x'.repeat(240)]);
    const wrong = await call('rest', 'verify_org_domain', { org_id: orgId, domain: 'typo.example' });
    assert.equal('error' in wrong && wrong.error, 'failed_precondition');
    assert.ok('message' in wrong && wrong.message.includes(`${challenge.record_value.slice(0, -1)}X`), 'names what was found');
    assert.ok(!wrong.message.includes('x'.repeat(101)), 'a long record found is truncated');
    assert.ok(wrong.message.includes(challenge.record_value), 'names the value to publish');
    assert.equal((await domainsOf(orgId))[0].state, 'pending');
    assert.equal(await routedTo('typo.example'), null);
  });

  test("another organization's record does not verify this organization's claim", async () => {
    const owner = await createOrg('real-owner');
    const squatter = await createOrg('squatter');
    const ownerChallenge = await over('rest', 'request_org_domain', { org_id: owner, domain: 'contested.example' });
    await over('rest', 'request_org_domain', { org_id: squatter, domain: 'contested.example' });
    dns.setTxt(ownerChallenge.record_name, [ownerChallenge.record_value]);
    const refused = await call('rest', 'verify_org_domain', { org_id: squatter, domain: 'contested.example' });
    assert.equal('error' in refused && refused.error, 'failed_precondition');
    assert.equal((await domainsOf(squatter))[0].state, 'pending');
    assert.equal(await routedTo('contested.example'), null);
    assert.equal((await over('rest', 'verify_org_domain', { org_id: owner, domain: 'contested.example' })).state, 'verified');
    assert.equal(await routedTo('contested.example'), owner);
  });

  test('a domain is verified for one organization at a time', async () => {
    const first = await createOrg('first-holder');
    const second = await createOrg('second-holder');
    const a = await over('rest', 'request_org_domain', { org_id: first, domain: 'shared.example' });
    const b = await over('rest', 'request_org_domain', { org_id: second, domain: 'shared.example' });
    dns.setTxt(a.record_name, [a.record_value, b.record_value]);
    await over('rest', 'verify_org_domain', { org_id: first, domain: 'shared.example' });
    const clash = await call('rest', 'verify_org_domain', { org_id: second, domain: 'shared.example' });
    assert.equal('error' in clash && clash.error, 'already_exists', JSON.stringify(clash));
    const added = await call('rest', 'add_verified_org_domain', { org_id: second, domain: 'shared.example' });
    assert.equal('error' in added && added.error, 'already_exists', 'the super-admin cannot make two owners either');
    assert.equal(await routedTo('shared.example'), first);
    // Once the first organization lets go, the second proves it and takes it over.
    await over('rest', 'delete_org_domain', { org_id: first, domain: 'shared.example' });
    assert.equal((await over('rest', 'verify_org_domain', { org_id: second, domain: 'shared.example' })).state, 'verified');
    assert.equal(await routedTo('shared.example'), second);
  });

  test('concurrent verifications of one domain by two organizations leave exactly one owner', async () => {
    const orgs = [await createOrg('race-a'), await createOrg('race-b'), await createOrg('race-c')];
    const values: string[] = [];
    for (const orgId of orgs) values.push((await over('rest', 'request_org_domain', { org_id: orgId, domain: 'race.example' })).record_value);
    dns.setTxt('_service-challenge.race.example', values);
    const outcomes = await Promise.all(orgs.map((orgId) => call('rest', 'verify_org_domain', { org_id: orgId, domain: 'race.example' })));
    assert.equal(outcomes.filter((o) => 'ok' in o).length, 1, JSON.stringify(outcomes));
    assert.ok(outcomes.every((o) => 'ok' in o || o.error === 'already_exists'), JSON.stringify(outcomes));
    const winner = orgs[outcomes.findIndex((o) => 'ok' in o)];
    assert.equal(await routedTo('race.example'), winner);
  });

  test('the super-admin adds a verified domain without DNS, also over a pending claim', async () => {
    const orgId = await createOrg('added');
    const before = dns.queries.length;
    const added = await over('rest', 'add_verified_org_domain', { org_id: orgId, domain: 'Added.Example' });
    assert.equal(added.state, 'verified');
    assert.equal(added.domain, 'added.example');
    const pending = await over('rest', 'request_org_domain', { org_id: orgId, domain: 'pending.example' });
    const promoted = await over('rest', 'add_verified_org_domain', { org_id: orgId, domain: 'pending.example' });
    assert.equal(promoted.state, 'verified');
    assert.equal(promoted.record_value, pending.record_value);
    assert.equal(dns.queries.length, before, 'no DNS query was made');
    assert.equal(await routedTo('added.example'), orgId);
    assert.equal(await routedTo('pending.example'), orgId);
    assert.equal((await domainsOf(orgId)).length, 2);
  });

  test('delete stops routing at once; deleting a missing domain is not_found', async () => {
    const orgId = await createOrg('leaving');
    await over('rest', 'add_verified_org_domain', { org_id: orgId, domain: 'leaving.example' });
    assert.equal(await routedTo('leaving.example'), orgId);
    assert.deepEqual(await over('rest', 'delete_org_domain', { org_id: orgId, domain: 'LEAVING.example' }), { message: 'domain deleted successfully' });
    assert.equal(await routedTo('leaving.example'), null);
    assert.deepEqual(await domainsOf(orgId), []);
    const again = await call('rest', 'delete_org_domain', { org_id: orgId, domain: 'leaving.example' });
    assert.equal('error' in again && again.error, 'not_found');
  });

  test('a disabled organization routes no domain; enabling it again restores the routing', async () => {
    const orgId = await createOrg('suspended');
    await over('rest', 'add_verified_org_domain', { org_id: orgId, domain: 'suspended.example' });
    await over('rest', 'update_organization', { id: orgId, enabled: false });
    assert.equal(await routedTo('suspended.example'), null);
    await over('rest', 'update_organization', { id: orgId, enabled: true });
    assert.equal(await routedTo('suspended.example'), orgId);
  });

  test('deleting the organization removes its domains, and another organization can then verify them', async () => {
    const orgId = await createOrg('doomed');
    await over('rest', 'add_verified_org_domain', { org_id: orgId, domain: 'doomed.example' });
    await over('rest', 'request_org_domain', { org_id: orgId, domain: 'doomed-pending.example' });
    await over('rest', 'delete_organization', { id: orgId });
    assert.equal(await routedTo('doomed.example'), null);
    const { OrgDomain } = await import('../../server/modules/org-domains/index.ts');
    assert.equal(await server.app.deps.storage.fork().count(OrgDomain, { orgId }), 0);
    const heir = await createOrg('heir');
    assert.equal((await over('rest', 'add_verified_org_domain', { org_id: heir, domain: 'doomed.example' })).state, 'verified');
  });

  test('org_domains pages oldest first', async () => {
    const orgId = await createOrg('many');
    for (const n of [1, 2, 3]) await over('rest', 'request_org_domain', { org_id: orgId, domain: `d${n}.many.example` });
    const page = await over('rest', 'org_domains', { org_id: orgId, pagination: { page: 2, limit: 2 } });
    assert.deepEqual(page.domains.map((d: any) => d.domain), ['d3.many.example']);
    assert.equal(page.pagination.total, 3);
  });

  test(`an organization holds at most ${MAX_DOMAINS_PER_ORG} domains`, async () => {
    const orgId = await createOrg('hoarder');
    for (let n = 0; n < MAX_DOMAINS_PER_ORG - 1; n++) await over('rest', 'request_org_domain', { org_id: orgId, domain: `d${n}.hoard.example` });
    await over('rest', 'add_verified_org_domain', { org_id: orgId, domain: 'last.hoard.example' });
    for (const name of ['request_org_domain', 'add_verified_org_domain']) {
      const refused = await call('rest', name, { org_id: orgId, domain: 'one-more.hoard.example' });
      assert.ok('error' in refused);
      assert.equal(refused.error, 'failed_precondition');
      assert.match(refused.message, /at most 100 domains/);
    }
    // Asking again for a domain it already holds still answers, and deleting one makes room.
    assert.equal((await over('rest', 'request_org_domain', { org_id: orgId, domain: 'd0.hoard.example' })).domain, 'd0.hoard.example');
    await over('rest', 'delete_org_domain', { org_id: orgId, domain: 'd0.hoard.example' });
    assert.equal((await over('rest', 'request_org_domain', { org_id: orgId, domain: 'one-more.hoard.example' })).domain, 'one-more.hoard.example');
  });

  for (const protocol of PROTOCOLS) {
    test(`${protocol}: request, verify, list and delete over ${protocol}`, async () => {
      const orgId = await createOrg(`over-${protocol}`);
      const domain = `${protocol}.example`;
      const challenge = await over(protocol, 'request_org_domain', { org_id: orgId, domain });
      assert.equal(challenge.record_name, `_service-challenge.${domain}`);
      const refused = await call(protocol, 'verify_org_domain', { org_id: orgId, domain });
      assert.equal('error' in refused && refused.error, 'failed_precondition');
      dns.setTxt(challenge.record_name, [challenge.record_value]);
      assert.equal((await over(protocol, 'verify_org_domain', { org_id: orgId, domain })).state, 'verified');
      const [listed] = (await over(protocol, 'org_domains', { org_id: orgId })).domains;
      assert.deepEqual([listed.domain, listed.state, listed.org_id], [domain, 'verified', orgId]);
      assert.equal(typeof listed.verified_at, 'number');
      await over(protocol, 'delete_org_domain', { org_id: orgId, domain });
      assert.equal(await routedTo(domain), null);
      const added = await over(protocol, 'add_verified_org_domain', { org_id: orgId, domain });
      assert.equal(added.state, 'verified');
    });
  }
});
