/**
 * The client registry's admin operations on a real server over REST
 * (docs/operations.md, "Client registry"; docs/api-overview.md#resources-and-fields, "Client"): the secret is
 * answered by create and rotate only and stored only as a
 * digest; get and list never show it; updates leave omitted fields alone; bad input is invalid_argument;
 * every operation refuses an anonymous caller and a signed-in user; lists are paginated; delete removes.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { ADMIN_HEADERS as ADMIN } from '../support/admin-client.ts';
import { signedUpUser } from '../support/signed-in-user.ts';
import { restClient } from '../support/rest-client.ts';
import { Client } from '../../server/modules/clients/index.ts';
import { clientSecretDigest } from '../../server/modules/clients/client-secret.ts';

const PASSWORD = 'Correct-Horse-Battery-9';

describe('client registry admin operations', () => {
  let server: TestServer;
  let rest: ReturnType<typeof restClient>;
  let userToken: string;

  const admin = (op: string, body: Record<string, unknown>) => rest.post(`/v1/admin/${op}`, body, ADMIN);
  async function create(body: Record<string, unknown> = {}) {
    const reply = await admin('create_client', { name: 'Billing service', ...body });
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body as { client: Record<string, any>; client_secret: string };
  }

  before(async () => {
    server = await startServer();
    rest = restClient(server);
    userToken = (await signedUpUser(server, { email: 'client-user@example.com', password: PASSWORD })).accessToken;
    assert.ok(userToken);
  });
  after(async () => {
    await server?.close();
  });

  test('create answers the secret once; get and list never show it; the row holds only its digest', async () => {
    const created = await create({
      description: 'nightly invoices',
      allowed_scopes: ['openid', 'invoices:read'],
      redirect_uris: ['https://billing.example.com/callback'],
    });
    const secret = created.client_secret;
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/, '32 random bytes, base64url');
    assert.equal(created.client.name, 'Billing service');
    assert.equal(created.client.consent_required, false, 'first-party by default');
    assert.equal(created.client.is_active, true);
    assert.deepEqual(created.client.allowed_scopes, ['openid', 'invoices:read']);
    assert.deepEqual(created.client.redirect_uris, ['https://billing.example.com/callback']);
    assert.ok(created.client.client_id.length >= 20 && created.client.client_id !== created.client.id);

    const byId = await admin('client', { id: created.client.id });
    const byClientId = await admin('client', { client_id: created.client.client_id });
    const list = await admin('clients', { pagination: { limit: 100 } });
    assert.equal(byId.status, 200);
    assert.deepEqual(byClientId.body, byId.body);
    assert.deepEqual(byId.body, created.client);
    const digest = clientSecretDigest(secret);
    for (const answer of [byId.body, byClientId.body, list.body]) {
      const text = JSON.stringify(answer);
      assert.ok(!text.includes(secret), 'the secret is never answered again');
      assert.ok(!text.includes(digest), 'nor its digest');
      assert.ok(!/secret|hash/i.test(text), 'no secret-shaped field at all');
    }

    const row = await server.app.deps.storage.fork().findOneOrFail(Client, { id: created.client.id });
    assert.equal(row.secretHash, digest, 'the digest is stored');
    assert.notEqual(row.secretHash, secret);
    assert.ok(!JSON.stringify(row).includes(secret), 'the plain secret is nowhere in the row');
  });

  test('update changes the given fields and leaves omitted ones as they were', async () => {
    const { client } = await create({ description: 'keep me', allowed_scopes: ['a'], redirect_uris: ['https://a.example.com/cb'] });
    const updated = await admin('update_client', { id: client.id, name: 'Renamed', consent_required: true, is_active: false });
    assert.equal(updated.status, 200, JSON.stringify(updated.body));
    assert.equal(updated.body.name, 'Renamed');
    assert.equal(updated.body.consent_required, true);
    assert.equal(updated.body.is_active, false);
    assert.equal(updated.body.description, 'keep me');
    assert.deepEqual(updated.body.allowed_scopes, ['a']);
    assert.deepEqual(updated.body.redirect_uris, ['https://a.example.com/cb']);
    assert.equal(updated.body.client_id, client.client_id, 'the public id never changes');

    const cleared = await admin('update_client', { id: client.id, allowed_scopes: [], description: '' });
    assert.deepEqual(cleared.body.allowed_scopes, []);
    assert.equal(cleared.body.description, '');
    assert.equal(cleared.body.name, 'Renamed');
  });

  test('bad input is invalid_argument and changes nothing', async () => {
    const { client } = await create();
    const badCreates: Record<string, unknown>[] = [
      { name: '' },
      { name: '   ' },
      { name: 'x', redirect_uris: ['not a url'] },
      { name: 'x', redirect_uris: ['/relative/path'] },
      { name: 'x', redirect_uris: ['javascript:alert(1)'] },
      { name: 'x', redirect_uris: ['ftp://files.example.com/'] },
      { name: 'x', redirect_uris: ['https://app.example.com/cb#frag'] },
      { name: 'x', redirect_uris: ['https://user:pw@app.example.com/cb'] },
      { name: 'x', redirect_uris: ['https://@app.example.com/cb'] },
      { name: 'x', redirect_uris: ['https:app.example.com/cb'] },
      { name: 'x', redirect_uris: ['https:///app.example.com/cb'] },
      { name: 'x', redirect_uris: ['https://evil.example.com\\@app.example.com/cb'] },
      { name: 'x', redirect_uris: ['https://app.example.com/a b'] },
      { name: 'x', allowed_scopes: ['two words'] },
      { name: 'x', allowed_scopes: ['quote"d'] },
      { name: 'x', allowed_scopes: ['back\\slash'] },
      { name: 'x', allowed_scopes: [''] },
    ];
    const before = (await admin('clients', {})).body.pagination.total;
    for (const body of badCreates) {
      const reply = await admin('create_client', body);
      assert.equal(reply.status, 400, `create ${JSON.stringify(body)}: ${JSON.stringify(reply.body)}`);
      assert.equal(reply.body.code, 'invalid_argument');
    }
    assert.equal((await admin('clients', {})).body.pagination.total, before, 'no client was created');

    for (const change of [{ name: ' ' }, { redirect_uris: ['mailto:a@example.com'] }, { allowed_scopes: ['a b'] }]) {
      const reply = await admin('update_client', { id: client.id, ...change });
      assert.equal(reply.body.code, 'invalid_argument', JSON.stringify(change));
    }
    assert.deepEqual((await admin('client', { id: client.id })).body, client, 'the client is unchanged');

    const both = await admin('client', { id: client.id, client_id: client.client_id });
    assert.equal(both.body.code, 'invalid_argument', 'exactly one of id and client_id');
    assert.equal((await admin('client', {})).body.code, 'invalid_argument');
    assert.equal((await admin('client', { id: 'no-such-client' })).body.code, 'not_found');
    assert.equal((await admin('rotate_client_secret', { id: 'no-such-client' })).body.code, 'not_found');
  });

  test('every operation refuses an anonymous caller and a signed-in user', async () => {
    const { client } = await create();
    const calls: [string, Record<string, unknown>][] = [
      ['create_client', { name: 'intruder' }],
      ['update_client', { id: client.id, name: 'owned' }],
      ['delete_client', { id: client.id }],
      ['rotate_client_secret', { id: client.id }],
      ['client', { id: client.id }],
      ['clients', {}],
    ];
    for (const [op, body] of calls) {
      const callers: Record<string, string>[] = [{}, { authorization: `Bearer ${userToken}` }];
      for (const headers of callers) {
        const reply = await rest.post(`/v1/admin/${op}`, body, headers);
        assert.ok(reply.status === 401 || reply.status === 403, `${op} with ${Object.keys(headers)}: ${reply.status}`);
        assert.ok(!JSON.stringify(reply.body).includes(client.client_id), `${op} leaks nothing`);
      }
      const wrongSecret = await rest.post(`/v1/admin/${op}`, body, { 'x-service-admin-secret': 'guess' });
      assert.ok(wrongSecret.status === 401 || wrongSecret.status === 403, `${op} with a wrong admin secret`);
    }
    assert.deepEqual((await admin('client', { id: client.id })).body, client, 'nothing changed');
  });

  test('list is newest first and paginated without repeats', async () => {
    for (let i = 0; i < 3; i++) await create({ name: `page client ${i}` });
    const all = await admin('clients', { pagination: { limit: 100 } });
    const total = all.body.pagination.total as number;
    assert.ok(total >= 3);
    assert.equal(all.body.clients.length, total);
    const created = all.body.clients.map((c: { created_at: number }) => c.created_at);
    assert.deepEqual(created, [...created].sort((a: number, b: number) => b - a), 'newest first');

    const seen: string[] = [];
    for (let page = 1; page <= Math.ceil(total / 2); page++) {
      const reply = await admin('clients', { pagination: { limit: 2, page } });
      assert.deepEqual(reply.body.pagination, { limit: 2, page, offset: (page - 1) * 2, total });
      seen.push(...reply.body.clients.map((c: { id: string }) => c.id));
    }
    assert.equal(seen.length, total);
    assert.equal(new Set(seen).size, total, 'no client on two pages');
    assert.deepEqual(seen, all.body.clients.map((c: { id: string }) => c.id));
  });

  test('delete removes the client; a second delete is not_found', async () => {
    const { client } = await create();
    const deleted = await admin('delete_client', { id: client.id });
    assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
    assert.equal((await admin('client', { id: client.id })).body.code, 'not_found');
    assert.equal((await admin('delete_client', { id: client.id })).body.code, 'not_found');
  });
});
