/**
 * Requests without content (RFC 7644 section 3.6; RFC 9110 section 8.3, RFC 9112 section 6.3): many SCIM
 * clients put `Content-Type: application/scim+json` on every request, DELETE included. A request that carries
 * no content is accepted whatever its Content-Type, framed with no length, `Content-Length: 0` or a chunked
 * body of zero bytes; a POST, PUT or PATCH without content gets the SCIM error for a missing body, not a JSON
 * syntax error. The requests are written on a raw socket so the framing is exactly what the test says.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startServer, type TestServer } from '../support/app.ts';
import { User } from '../../server/modules/users/index.ts';
import { assertScimError, GROUP_SCHEMA, newUser, orgWithScim, scimClient, type ScimAnswer } from './support.ts';

type Framing = 'none' | 'content-length-0' | 'chunked-empty';

describe('SCIM requests without content', () => {
  let server: TestServer;
  let org: { orgId: string; token: string };
  const scim = scimClient(() => server, () => org.token);

  /** One HTTP/1.1 request on its own connection, with exactly the headers named and no content. */
  const raw = (method: string, path: string, framing: Framing, contentType: string | null = 'application/scim+json'): Promise<ScimAnswer> =>
    new Promise((resolve, reject) => {
      const url = new URL(server.baseUrl);
      const lines = [
        `${method} /scim/v2${path} HTTP/1.1`,
        `Host: ${url.host}`,
        `Authorization: Bearer ${org.token}`,
        'Accept: application/scim+json',
        'Connection: close',
        ...(contentType === null ? [] : [`Content-Type: ${contentType}`]),
        ...(framing === 'content-length-0' ? ['Content-Length: 0'] : []),
        ...(framing === 'chunked-empty' ? ['Transfer-Encoding: chunked'] : []),
      ];
      const socket = connect(Number(url.port), url.hostname);
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const [head, ...rest] = text.split('\r\n\r\n');
        const [statusLine, ...headerLines] = head.split('\r\n');
        const headers = new Headers();
        for (const line of headerLines) {
          const colon = line.indexOf(':');
          headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
        }
        let body = rest.join('\r\n\r\n');
        if (headers.get('transfer-encoding') === 'chunked') body = dechunk(body);
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body ? JSON.parse(body) : undefined });
      });
      socket.write(`${lines.join('\r\n')}\r\n\r\n${framing === 'chunked-empty' ? '0\r\n\r\n' : ''}`);
    });

  const createUser = async (userName: string): Promise<string> => {
    const created = await scim('POST', '/Users', newUser(userName));
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body.id;
  };

  before(async () => {
    server = await startServer();
    org = await orgWithScim(server, ['example.com']);
  });
  after(async () => server?.close());

  for (const framing of ['none', 'content-length-0', 'chunked-empty'] as const) {
    test(`DELETE /Users/<id> with Content-Type: application/scim+json and no content (${framing}) deprovisions the user`, async () => {
      const id = await createUser(`delete-${framing}@example.com`);
      const deleted = await raw('DELETE', `/Users/${id}`, framing);
      assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
      assertScimError(await scim('GET', `/Users/${id}`), 404);
      const account = await server.app.deps.storage.fork().findOneOrFail(User, { id });
      assert.ok(account.revokedAt, 'the account is deprovisioned, not left active');
    });
  }

  test('DELETE without content is accepted whatever its Content-Type, Groups too', async () => {
    for (const contentType of ['application/json', 'application/scim+json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded']) {
      const id = await createUser(`delete-${contentType.replace(/[^a-z]/g, '')}@example.com`);
      const deleted = await raw('DELETE', `/Users/${id}`, 'content-length-0', contentType);
      assert.equal(deleted.status, 204, `${contentType}: ${JSON.stringify(deleted.body)}`);
    }
    const group = await scim('POST', '/Groups', { schemas: [GROUP_SCHEMA], displayName: 'Bodyless' });
    assert.equal(group.status, 201, JSON.stringify(group.body));
    assert.equal((await raw('DELETE', `/Groups/${group.body.id}`, 'chunked-empty')).status, 204);
    assertScimError(await scim('GET', `/Groups/${group.body.id}`), 404);
  });

  test('GET with a Content-Type and no content reads the resource', async () => {
    const id = await createUser('read-bodyless@example.com');
    for (const framing of ['none', 'content-length-0'] as const) {
      const read = await raw('GET', `/Users/${id}`, framing);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      assert.equal(read.body.id, id);
    }
    const list = await raw('GET', '/Users', 'content-length-0', 'text/plain');
    assert.equal(list.status, 200, JSON.stringify(list.body));
  });

  test('POST, PUT and PATCH without content: the missing body is named, not a JSON syntax error', async () => {
    const id = await createUser('write-bodyless@example.com');
    for (const [method, path] of [['POST', '/Users'], ['PUT', `/Users/${id}`], ['PATCH', `/Users/${id}`], ['POST', '/Groups']] as const) {
      for (const framing of ['content-length-0', 'chunked-empty'] as const) {
        const answer = await raw(method, path, framing);
        assertScimError(answer, 400, 'invalidSyntax');
        assert.match(answer.body.detail, /requires a body/, `${method} ${path} ${framing}: ${answer.body.detail}`);
        assert.doesNotMatch(answer.body.detail, /not valid JSON/);
      }
    }
    const still = await scim('GET', `/Users/${id}`);
    assert.equal(still.status, 200, 'a refused write changes nothing');
    assert.equal(still.body.meta.version, 'W/"1"');
  });

  test('content that is there is still parsed: bad JSON is invalidSyntax, another media type is 415', async () => {
    const bad = await scim('POST', '/Users', '{"userName": ');
    assertScimError(bad, 400, 'invalidSyntax');
    assert.match(bad.body.detail, /not valid JSON/);
    const text = await fetch(`${server.baseUrl}/scim/v2/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${org.token}`, 'content-type': 'text/plain' },
      body: JSON.stringify(newUser('plain@example.com')),
    });
    assertScimError({ status: text.status, headers: text.headers, body: await text.json() }, 415);
  });
});

/** The content of a chunked HTTP/1.1 body (RFC 9112 section 7.1). */
function dechunk(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return out;
    out += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
