/**
 * Trusted issuer admin operations (docs/api-overview.md#resources-and-fields, "Trusted issuer", docs/operations.md) over REST, GraphQL and
 * gRPC with real inputs: add (defaults: audience = {--url}/oauth/token, subject_claim = sub), read, list
 * filtered by client_id or service_account_id with pagination, update (only the fields docs/operations.md#update_trusted_issuer
 * lists), delete; validation errors (http JWKS URL off loopback, credentials in it, bad subject_claim, an
 * unknown client, a duplicate iss, conflicting client_id and service_account_id) answered alike on all
 * three; delete_client removes the client's issuers.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminProtocolsOnServer } from '../support/admin-protocols.ts';
import { LOOPBACK_JWKS_FLAG } from '../oauth/trusted-issuer-fixture.ts';
import { TrustedIssuer } from '../../server/modules/clients/index.ts';

const NOW = new Date(Date.UTC(2026, 1, 1));


describe('trusted issuers across protocols', () => {
  const { call, over, server: app } = adminProtocolsOnServer([LOOPBACK_JWKS_FLAG], { clock: { now: () => NOW } });

  async function newClient(name: string): Promise<any> {
    return (await over('rest', 'create_client', { name })).client;
  }

  test('add, read, list, update and delete over each protocol', async () => {
    for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
      const client = await newClient(`owner via ${protocol}`);
      const added = await over(protocol, 'add_trusted_issuer', {
        client_id: client.client_id, name: ' Cluster ', issuer: 'https://k8s.example', jwks_url: 'https://k8s.example/openid/v1/jwks',
      });
      assert.equal(added.client_id, client.client_id, protocol);
      assert.equal(added.name, 'Cluster');
      assert.equal(added.audience, 'http://127.0.0.1:8080/oauth/token', 'default audience: the token endpoint');
      assert.equal(added.subject_claim, 'sub', 'default subject_claim');
      assert.equal(added.is_active, true);
      assert.equal(added.spiffe_hint, undefined);
      assert.equal(added.created_at, Math.floor(NOW.getTime() / 1000));

      assert.deepEqual(await over(protocol, 'trusted_issuer', { id: added.id }), added);

      const updated = await over(protocol, 'update_trusted_issuer', {
        id: added.id, audience: 'https://api.example', spiffe_hint: 'spiffe://k8s.example', is_active: false,
      });
      assert.equal(updated.audience, 'https://api.example');
      assert.equal(updated.spiffe_hint, 'spiffe://k8s.example');
      assert.equal(updated.is_active, false);
      assert.equal(updated.name, 'Cluster', 'omitted fields stay');
      assert.equal(updated.jwks_url, 'https://k8s.example/openid/v1/jwks');

      const listed = await over(protocol, 'trusted_issuers', { client_id: client.client_id });
      assert.deepEqual(listed.trusted_issuers, [updated]);
      assert.equal(listed.pagination.total, 1);
      const byAlias = await over(protocol, 'trusted_issuers', { service_account_id: client.client_id });
      assert.deepEqual(byAlias.trusted_issuers, [updated]);

      assert.match((await over(protocol, 'delete_trusted_issuer', { id: added.id })).message, /deleted/);
      assert.deepEqual(await call(protocol, 'trusted_issuer', { id: added.id }), { error: 'not_found', message: 'trusted issuer not found' });
    }
  });

  test('the three protocols answer get, list and update alike', async () => {
    const client = await newClient('alike');
    const added = await over('rest', 'add_trusted_issuer', {
      service_account_id: client.client_id, name: 'spire', issuer: 'spiffe://example.org', jwks_url: 'http://127.0.0.1:8081/keys',
      audience: 'portcullis', subject_claim: 'spiffe_id', spiffe_hint: 'spiffe://example.org/ns/prod',
    });
    assert.equal(added.subject_claim, 'spiffe_id');
    for (const [name, input] of [
      ['trusted_issuer', { id: added.id }],
      ['trusted_issuers', { client_id: client.client_id, pagination: { limit: 5, page: 1 } }],
      ['update_trusted_issuer', { id: added.id, name: 'spire agent' }],
    ] as const) {
      const rest = await over('rest', name, input);
      assert.deepEqual(await over('graphql', name, input), rest, `GraphQL differs for ${name}`);
      assert.deepEqual(await over('grpc', name, input), rest, `gRPC differs for ${name}`);
    }
  });

  test('validation errors are clear and alike on every protocol', async () => {
    const client = await newClient('validation');
    const base = { client_id: client.client_id, name: 'x', issuer: 'https://iss.example', jwks_url: 'https://iss.example/jwks' };
    await over('rest', 'add_trusted_issuer', base);
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ ...base, issuer: 'https://a.example', jwks_url: 'http://keys.example/jwks' }, 'invalid_argument', /https.*loopback/],
      [{ ...base, issuer: 'https://b.example', jwks_url: 'https://user:pw@keys.example/jwks' }, 'invalid_argument', /credentials/],
      [{ ...base, issuer: 'https://c.example', jwks_url: 'ftp://keys.example/jwks' }, 'invalid_argument', /https/],
      [{ ...base, issuer: 'https://d.example', jwks_url: 'not a url' }, 'invalid_argument', /absolute URL/],
      [{ ...base, issuer: 'https://e.example', subject_claim: 'sub claim' }, 'invalid_argument', /subject_claim/],
      [{ ...base, issuer: ' https://f.example' }, 'invalid_argument', /issuer/],
      [{ ...base, issuer: 'https://g.example', name: '   ' }, 'invalid_argument', /name/],
      [{ ...base, issuer: 'https://h.example', service_account_id: 'someone-else' }, 'invalid_argument', /different clients/],
      [{ name: 'x', issuer: 'https://i.example', jwks_url: 'https://iss.example/jwks' }, 'invalid_argument', /client_id/],
      [{ ...base, issuer: 'https://j.example', client_id: 'no-such-client' }, 'not_found', /client not found/],
      [base, 'already_exists', /already trusts/],
    ];
    for (const [input, kind, message] of cases) {
      for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
        const outcome = await call(protocol, 'add_trusted_issuer', input);
        assert.ok('error' in outcome, `${protocol} ${JSON.stringify(input)} succeeded`);
        assert.equal(outcome.error, kind, `${protocol} ${JSON.stringify(input)}: ${outcome.message}`);
        assert.match(outcome.message, message, protocol);
      }
    }
    const added = (await over('rest', 'trusted_issuers', { client_id: client.client_id })).trusted_issuers[0];
    for (const protocol of ['rest', 'graphql', 'grpc'] as const) {
      const outcome = await call(protocol, 'update_trusted_issuer', { id: added.id, jwks_url: 'http://10.0.0.1/jwks' });
      assert.ok('error' in outcome && outcome.error === 'invalid_argument', `${protocol}: ${JSON.stringify(outcome)}`);
      assert.equal((await call(protocol, 'update_trusted_issuer', { id: 'missing', name: 'n' }) as any).error, 'not_found');
    }
  });

  test('the list pages and filters', async () => {
    const client = await newClient('many');
    for (let i = 0; i < 3; i++) {
      await over('rest', 'add_trusted_issuer', { client_id: client.client_id, name: `n${i}`, issuer: `https://many${i}.example`, jwks_url: 'https://many.example/jwks' });
    }
    const first = await over('grpc', 'trusted_issuers', { client_id: client.client_id, pagination: { limit: 2, page: 1 } });
    const second = await over('grpc', 'trusted_issuers', { client_id: client.client_id, pagination: { limit: 2, page: 2 } });
    assert.equal(first.trusted_issuers.length, 2);
    assert.equal(second.trusted_issuers.length, 1);
    assert.equal(first.pagination.total, 3);
    const ids = new Set([...first.trusted_issuers, ...second.trusted_issuers].map((row: any) => row.id));
    assert.equal(ids.size, 3);
    const all = await over('rest', 'trusted_issuers', { pagination: { limit: 100 } });
    assert.ok(all.pagination.total >= 3);
    assert.ok(all.trusted_issuers.some((row: any) => row.client_id !== client.client_id), 'no filter lists every client\'s issuers');
  });

  test('delete_client deletes the client\'s trusted issuers and no one else\'s', async () => {
    const doomed = await newClient('doomed');
    const kept = await newClient('kept');
    const a = await over('rest', 'add_trusted_issuer', { client_id: doomed.client_id, name: 'a', issuer: 'https://a.example', jwks_url: 'https://a.example/jwks' });
    await over('rest', 'add_trusted_issuer', { client_id: doomed.client_id, name: 'b', issuer: 'https://b.example', jwks_url: 'https://b.example/jwks' });
    const other = await over('rest', 'add_trusted_issuer', { client_id: kept.client_id, name: 'a', issuer: 'https://a.example', jwks_url: 'https://a.example/jwks' });
    await over('graphql', 'delete_client', { id: doomed.id });
    const em = app().app.deps.storage.fork();
    assert.equal(await em.count(TrustedIssuer, { clientId: doomed.client_id }), 0);
    assert.deepEqual(await call('rest', 'trusted_issuer', { id: a.id }), { error: 'not_found', message: 'trusted issuer not found' });
    assert.equal((await over('rest', 'trusted_issuer', { id: other.id })).id, other.id);
  });
});
