/**
 * A trusted issuer's JWKS URL is a request any anonymous jwt-bearer caller makes the server send, so it follows
 * the server's outbound address policy (OWASP SSRF Prevention Cheat Sheet), as webhooks and organization SSO
 * do: a loopback, private, link-local or metadata address, or `localhost`, is refused when the issuer is added
 * or updated (invalid_argument, over REST, GraphQL and gRPC), and a name is resolved at fetch time and refused
 * when it resolves to such an address, without a connection, unless --trusted-issuer-allow-private-addresses.
 * The token endpoint's refusal is a plain invalid_grant that repeats neither the upstream's status nor its address.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { Resolver } from 'node:dns/promises';
import { hostname } from 'node:os';
import { lookup } from 'node:dns/promises';
import { startServer, type TestServer } from '../support/app.ts';
import { adminProtocolsOnServer } from '../support/admin-protocols.ts';
import { PROTOCOLS } from '../support/org-callers.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { JWT_BEARER, JwksServer, addIssuer, createClient, newSigningKey, signAssertion, tokenRequest } from '../oauth/trusted-issuer-fixture.ts';
import { fetchJwks, JwksUnavailableError } from '../../server/modules/clients/jwks-cache.ts';
import { isRefusedAddress } from '../../server/kernel/outbound-address.ts';

const INTERNAL_JWKS_URLS = [
  'https://169.254.169.254/latest/meta-data/iam/security-credentials',
  'https://10.0.0.1/jwks',
  'http://127.0.0.1:8081/keys',
  'https://127.0.0.1/keys',
  'https://localhost/jwks',
  'https://keys.localhost/jwks',
  'https://[::1]/jwks',
  'https://[::ffff:10.0.0.1]/jwks',
  'https://[fd00:ec2::254]/latest/meta-data',
];

/** A TCP listener that only counts connections: proof that a refused URL was never dialled. */
async function connectionCounter(): Promise<{ server: TcpServer; port: number; connections: () => number }> {
  let count = 0;
  const server = createTcpServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => count };
}

describe('trusted issuer JWKS URLs: registration refuses internal addresses', () => {
  const { call, over } = adminProtocolsOnServer();

  test('add_trusted_issuer refuses loopback, private, link-local and metadata addresses over every protocol', async () => {
    const { client } = await over('rest', 'create_client', { name: 'ssrf probe', allowed_scopes: ['jobs:read'] });
    for (const protocol of PROTOCOLS) {
      for (const [i, jwksUrl] of INTERNAL_JWKS_URLS.entries()) {
        const outcome = await call(protocol, 'add_trusted_issuer', {
          client_id: client.client_id, name: 'probe', issuer: `https://probe-${protocol}-${i}.example`, jwks_url: jwksUrl,
        });
        assert.ok('error' in outcome, `${protocol} accepted ${jwksUrl}`);
        assert.equal(outcome.error, 'invalid_argument', `${protocol} ${jwksUrl}`);
        assert.match(outcome.message, /jwks_url.*internal address.*--trusted-issuer-allow-private-addresses/, `${protocol} ${jwksUrl}`);
      }
    }
  });

  test('update_trusted_issuer refuses them too; a public name is accepted', async () => {
    const { client } = await over('rest', 'create_client', { name: 'ssrf update', allowed_scopes: ['jobs:read'] });
    const added = await over('rest', 'add_trusted_issuer', {
      client_id: client.client_id, name: 'public', issuer: 'https://public.example', jwks_url: 'https://keys.public.example/jwks',
    });
    for (const protocol of PROTOCOLS) {
      for (const jwksUrl of INTERNAL_JWKS_URLS) {
        const outcome = await call(protocol, 'update_trusted_issuer', { id: added.id, jwks_url: jwksUrl });
        assert.ok('error' in outcome && outcome.error === 'invalid_argument', `${protocol} ${jwksUrl}: ${JSON.stringify(outcome)}`);
      }
    }
    assert.equal((await over('rest', 'trusted_issuer', { id: added.id })).jwks_url, 'https://keys.public.example/jwks');
  });
});

describe('trusted issuer JWKS URLs: a name is checked again when it is fetched', () => {
  let server: TestServer;
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  before(async () => {
    server = await startServer();
    counter = await connectionCounter();
  });
  after(async () => {
    counter?.server.close();
    await server?.close();
  });

  test('a name that resolves to a loopback address is refused at fetch time, never dialled, with a generic invalid_grant', async () => {
    // The machine's own name resolves to a loopback or private address on a workstation or in a container
    // (/etc/hosts): a name accepted at registration that DNS now points inward, as a rebinding name would.
    const own = hostname();
    const answers = await lookup(own, { all: true });
    assert.ok(answers.some((a) => isRefusedAddress(a.address)), `${own} resolves to an internal address here`);
    const owner = await createClient(server, { name: 'rebinding' });
    const key = await newSigningKey('ES256');
    const issuer = 'https://rebinding.example';
    const audience = 'https://portcullis.example/jobs';
    await addIssuer(server, { client_id: owner.client_id, name: 'rebinding', issuer, jwks_url: `https://${own}:${counter.port}/jwks.json`, audience });
    const res = await tokenRequest(server, { grant_type: JWT_BEARER, assertion: await signAssertion(key, { iss: issuer, sub: 'job', aud: audience }) });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error, 'invalid_grant');
    const description = String(res.body.error_description);
    for (const leak of [own, String(counter.port), '127.0.0.1', 'internal', 'HTTP']) {
      assert.ok(!description.includes(leak), `the refusal names ${leak}: ${description}`);
    }
    assert.equal(counter.connections(), 0, 'nothing was dialled');
  });
});

describe('trusted issuer JWKS fetches: the refusal repeats nothing of the upstream', () => {
  let server: TestServer;
  let upstream: HttpServer;
  let port = 0;
  before(async () => {
    server = await startServer(['--trusted-issuer-allow-private-addresses=true']);
    upstream = createHttpServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'text/plain' });
      res.end('metadata service says no');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    port = (upstream.address() as AddressInfo).port;
  });
  after(async () => {
    upstream?.close();
    await server?.close();
  });

  test('an upstream answering 503 gives invalid_grant without the status, the address or the body', async () => {
    const owner = await createClient(server, { name: 'failing upstream' });
    const key = await newSigningKey('ES256');
    const issuer = 'https://failing.example';
    const audience = 'https://portcullis.example/failing';
    await addIssuer(server, { client_id: owner.client_id, name: 'failing', issuer, jwks_url: `http://127.0.0.1:${port}/jwks.json`, audience });
    const res = await tokenRequest(server, { grant_type: JWT_BEARER, assertion: await signAssertion(key, { iss: issuer, sub: 'job', aud: audience }) });
    assert.equal(res.status, 400);
    assert.equal(res.body.error, 'invalid_grant');
    const description = String(res.body.error_description);
    for (const leak of ['503', 'HTTP', String(port), '127.0.0.1', 'metadata service']) {
      assert.ok(!description.includes(leak), `the refusal names ${leak}: ${description}`);
    }
  });

  test('with the flag a loopback JWKS is fetched and verifies (tests and closed networks)', async () => {
    const jwks = await new JwksServer().start();
    try {
      const key = await newSigningKey('ES256');
      jwks.keys = [key.publicJwk];
      const owner = await createClient(server, { name: 'closed network' });
      const issuer = 'https://closed.example';
      const audience = 'https://portcullis.example/closed';
      await addIssuer(server, { client_id: owner.client_id, name: 'closed', issuer, jwks_url: jwks.url, audience });
      const res = await tokenRequest(server, { grant_type: JWT_BEARER, assertion: await signAssertion(key, { iss: issuer, sub: 'job', aud: audience }) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    } finally {
      await jwks.close();
    }
  });
});

describe('fetchJwks resolves once and dials only what it checked', () => {
  let dns: TestDnsServer;
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  before(async () => {
    dns = await startDnsServer();
    counter = await connectionCounter();
  });
  after(async () => {
    counter?.server.close();
    await dns?.close();
  });

  /** The names of the test DNS server, as the fetch's one resolution. */
  const viaTestDns = async (name: string) => {
    const resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([dns.address]);
    return (await resolver.resolve4(name)).map((address) => ({ address, family: 4 as const }));
  };

  test('a name the DNS answers with a private, loopback or metadata address is refused without a connection', async () => {
    for (const [name, address] of [['keys.rebind.test', '127.0.0.1'], ['meta.rebind.test', '169.254.169.254'], ['lan.rebind.test', '10.0.0.1']] as const) {
      dns.setA(name, [address]);
      await assert.rejects(
        fetchJwks(`https://${name}:${counter.port}/jwks.json`, { resolve: viaTestDns }),
        (err: Error) => err instanceof JwksUnavailableError && !err.message.includes(address),
        name,
      );
    }
    // A mixed answer is refused whole: a public address beside an internal one is how rebinding starts.
    dns.setA('mixed.rebind.test', ['93.184.216.34', '127.0.0.1']);
    await assert.rejects(fetchJwks(`https://mixed.rebind.test:${counter.port}/jwks.json`, { resolve: viaTestDns }), JwksUnavailableError);
    assert.ok(dns.queries.includes('keys.rebind.test'), 'the name was resolved through the test DNS server');
    assert.equal(counter.connections(), 0, 'nothing was dialled');
  });

  test('with allowPrivate the checked address is the one dialled', async () => {
    dns.setA('allowed.rebind.test', ['127.0.0.1']);
    await assert.rejects(fetchJwks(`http://allowed.rebind.test:${counter.port}/jwks.json`, { resolve: viaTestDns, allowPrivate: true }), JwksUnavailableError);
    assert.equal(counter.connections(), 1, 'the pinned address was dialled once');
  });
});
