/**
 * `_import_users` (docs/importing-users.md) over REST (a JSON body, and a streamed application/x-ndjson one),
 * GraphQL and gRPC: the same counts and line errors everywhere; profile, roles and the administrator's word
 * on verified addresses stored as create_user stores them; malformed lines reported by number without
 * stopping the rest; the same file twice changes nothing; and the abuse cases: a caller who is not the
 * super-admin, a huge line, a huge body, an oversized field, NDJSON sent elsewhere.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { orgCallersOnServer, PROTOCOLS } from '../support/org-callers.ts';
import { ADMIN_HEADERS } from '../support/three-protocols.ts';
import { User } from '../../server/modules/users/index.ts';
import { EventOutbox } from '../../server/modules/events/index.ts';
import { AuditLog } from '../../server/modules/audit/audit-log.entity.ts';
import { linesOfStream, MAX_LINE_BYTES, type ImportLine, type StreamEnd } from '../../server/modules/accounts/index.ts';

const line = (fields: Record<string, unknown>) => JSON.stringify(fields);

/** A body cut into chunks at awkward places (inside lines and inside multi-byte characters). */
function chunked(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = Buffer.from(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(at, at + size));
      at += size;
    },
  });
}

describe('import_users', () => {
  const on = orgCallersOnServer(['--roles', 'user,editor', '--default-roles', 'user']);
  const em = () => on.server().app.deps.storage.fork();
  const ndjson = (body: string | ReadableStream<Uint8Array>, headers: Record<string, string> = ADMIN_HEADERS) =>
    fetch(`${on.server().baseUrl}/v1/admin/import_users`, {
      method: 'POST',
      headers: { origin: on.server().baseUrl, 'content-type': 'application/x-ndjson', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);

  test('over each protocol: the users, their profile, roles and the administrator\'s word on their addresses', async () => {
    for (const protocol of PROTOCOLS) {
      const lines = [
        line({ email: ` Ada.${protocol}@Import.Example `, email_verified: true, given_name: 'Ada', family_name: 'Lovelace', roles: ['editor'], external_id: `ada-${protocol}`, app_data: { plan: 'pro' } }),
        line({ phone_number: `+1555010${PROTOCOLS.indexOf(protocol)}001`, phone_number_verified: true, nickname: 'Phone only' }),
        line({ email: `unverified.${protocol}@import.example`, picture: 'https://img.example/a.png' }),
      ];
      const answer = await on.over(protocol, 'import_users', { lines: lines.join('\n') });
      assert.deepEqual(
        { lines: answer.lines, created: answer.created, unchanged: answer.unchanged, failed: answer.failed, errors: answer.errors ?? [] },
        { lines: 3, created: 3, unchanged: 0, failed: 0, errors: [] },
        protocol,
      );
      const ada = await em().findOneOrFail(User, { email: `ada.${protocol}@import.example` });
      assert.equal(ada.givenName, 'Ada');
      assert.deepEqual(ada.roles, ['editor']);
      assert.ok(ada.emailVerifiedAt, 'marked verified on the administrator\'s word');
      assert.equal(ada.emailVerifiedVia, 'admin');
      assert.equal(ada.importedId, `ada-${protocol}`);
      assert.deepEqual(ada.appData, { plan: 'pro' });
      assert.equal(ada.passwordHash, null);
      assert.equal(ada.passwordChangeRequiredAt, null);
      const phone = await em().findOneOrFail(User, { phoneNumber: `+1555010${PROTOCOLS.indexOf(protocol)}001` });
      assert.ok(phone.phoneNumberVerifiedAt);
      assert.deepEqual(phone.roles, ['user'], '--default-roles when none are given');
      const unverified = await em().findOneOrFail(User, { email: `unverified.${protocol}@import.example` });
      assert.equal(unverified.emailVerifiedAt, null, 'not verified unless the line says so');
      const events = await em().find(EventOutbox, { eventName: 'user.created' });
      assert.ok(events.some((event) => (event.payload as any).user?.id === ada.id), 'user.created recorded');
    }
    const audits = await em().find(AuditLog, { action: 'admin.import_users' });
    assert.equal(audits.length, 3);
    assert.ok(audits.every((entry) => !JSON.stringify(entry.metadata).includes('import.example')), 'field names only');
  });

  test('malformed lines are reported by number with the reason; the others are imported', async () => {
    const lines = [
      line({ email: 'good1@malformed.example' }),
      '{"email": "broken@malformed.example"',
      '',
      '["an", "array"]',
      line({ email: 'typo@malformed.example', given_nmae: 'x' }),
      line({ given_name: 'nobody' }),
      line({ email: 'not-an-address' }),
      line({ email: 'role@malformed.example', roles: ['root'] }),
      line({ phone_number: '+15550109999', email_verified: true }),
      line({ email: 'GOOD1@malformed.example' }),
      line({ email: 'good2@malformed.example', given_name: 'x'.repeat(300) }),
      line({ email: 'nul@malformed.example', given_name: 'a\u0000b' }),
      line({ email: 'good3@malformed.example' }),
    ];
    for (const protocol of PROTOCOLS) {
      const answer = await on.over(protocol, 'import_users', { lines: lines.join('\r\n').replaceAll('malformed', `malformed-${protocol}`) });
      assert.equal(answer.created, 2, JSON.stringify(answer));
      assert.equal(answer.failed, 10);
      assert.equal(answer.lines, 13);
      const reasons = Object.fromEntries(answer.errors.map((error: { line: number; reason: string }) => [error.line, error.reason]));
      assert.match(reasons[2], /not valid JSON/);
      assert.equal(reasons[3], undefined, 'a blank line is skipped');
      assert.match(reasons[4], /must be a JSON object/);
      assert.match(reasons[5], /unknown field "given_nmae"/);
      assert.match(reasons[6], /email or phone_number is required/);
      assert.match(reasons[7], /invalid email address/);
      assert.match(reasons[8], /role "root" is not one of the configured roles/);
      assert.match(reasons[9], /email_verified needs an email address/);
      assert.match(reasons[10], /the same email as line 1/);
      assert.match(reasons[11], /given_name is longer than 255 characters/);
      assert.match(reasons[12], /control characters/);
    }
  });

  test('the same file twice changes nothing: the second import reports every line unchanged', async () => {
    const file = Array.from({ length: 1200 }, (_, i) => line({ email: `twice-${i}@import.example`, given_name: `User ${i}`, external_id: `ext-${i}` })).join('\n');
    const first = await (await ndjson(file)).json();
    assert.equal(first.created, 1200, JSON.stringify(first.errors));
    const count = await em().count(User, {});
    const events = await em().count(EventOutbox, { eventName: 'user.created' });
    const second = await (await ndjson(file)).json();
    assert.deepEqual([second.created, second.unchanged, second.failed], [0, 1200, 0]);
    const again = await on.over('graphql', 'import_users', { lines: file.split('\n').slice(0, 50).join('\n') });
    assert.deepEqual([again.created, again.unchanged], [0, 50]);
    // Matched by external id even when the address changed in the source system.
    const moved = await on.over('grpc', 'import_users', { lines: line({ email: 'moved-0@import.example', external_id: 'ext-0' }) });
    assert.deepEqual([moved.created, moved.unchanged], [0, 1]);
    assert.equal(await em().count(User, {}), count);
    assert.equal(await em().count(EventOutbox, { eventName: 'user.created' }), events);
    assert.equal((await em().findOneOrFail(User, { importedId: 'ext-0' })).email, 'twice-0@import.example');
  });

  test('over REST the body streams: thousands of users in chunks that cut lines and characters', async () => {
    const file = Array.from({ length: 3000 }, (_, i) => line({ email: `stream-${i}@import.example`, given_name: `Zoë ${i} 北京` })).join('\n') + '\n';
    const reply = await ndjson(chunked(file, 1009));
    assert.equal(reply.status, 200);
    const answer = await reply.json();
    assert.deepEqual([answer.lines, answer.created, answer.failed], [3000, 3000, 0]);
    assert.equal((await em().findOneOrFail(User, { email: 'stream-2999@import.example' })).givenName, 'Zoë 2999 北京');
    // 3 + 3 requests in the two tests above, 4 in the one before, this one.
    assert.equal(await em().count(AuditLog, { action: 'admin.import_users' }), 3 + 3 + 4 + 1, 'one audit entry per request, streamed ones too');
  });

  test('a caller who is not the super-admin imports nothing, on every protocol and on the stream', async () => {
    const user = await on.signedInUser();
    const input = { lines: line({ email: 'intruder@import.example', roles: ['editor'] }) };
    for (const protocol of PROTOCOLS) {
      const anonymous = await on.call(protocol, 'import_users', input, 'anonymous');
      assert.ok('error' in anonymous && anonymous.error === 'unauthenticated', `${protocol}: ${JSON.stringify(anonymous)}`);
      const asUser = await on.call(protocol, 'import_users', input, { bearer: user.token });
      assert.ok('error' in asUser && ['unauthenticated', 'permission_denied'].includes(asUser.error), `${protocol}: ${JSON.stringify(asUser)}`);
    }
    const callers: Array<Record<string, string>> = [{}, { authorization: `Bearer ${user.token}` }, { 'x-service-admin-secret': 'wrong' }];
    for (const headers of callers) {
      const reply = await ndjson(input.lines, headers);
      assert.ok(reply.status === 401 || reply.status === 403, String(reply.status));
    }
    assert.equal(await em().count(User, { email: 'intruder@import.example' }), 0);
  });

  test('a huge line is refused on its own; a huge body or field is refused cleanly', async () => {
    const huge = line({ email: 'huge@import.example', given_name: 'x'.repeat(MAX_LINE_BYTES) });
    const reply = await ndjson(chunked([line({ email: 'before-huge@import.example' }), huge, line({ email: 'after-huge@import.example' })].join('\n'), 4096));
    const answer = await reply.json();
    assert.deepEqual([answer.created, answer.failed], [2, 1], JSON.stringify(answer));
    assert.deepEqual(answer.errors, [{ line: 2, reason: `the line is longer than ${MAX_LINE_BYTES} bytes` }]);

    // A declared length over the limit is answered before a byte of the body is sent.
    const declared = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${on.server().baseUrl}/v1/admin/import_users`, {
        method: 'POST',
        headers: { origin: on.server().baseUrl, 'content-type': 'application/x-ndjson', 'content-length': String(65 * 1024 * 1024), ...ADMIN_HEADERS },
      });
      request.on('response', (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => {
          resolve({ status: response.statusCode!, body });
          request.destroy();
        });
      });
      request.on('error', reject);
      request.flushHeaders();
    });
    assert.equal(declared.status, 413);
    assert.match(JSON.parse(declared.body).message, /over 67108864 bytes/);

    const field = await on.call('graphql', 'import_users', { lines: 'x'.repeat(600 * 1024) });
    assert.ok('error' in field, 'the lines field is bounded');
    const grpcField = await on.call('grpc', 'import_users', { lines: `${line({ email: 'g@import.example' })}\n`.repeat(20000) });
    assert.ok('error' in grpcField && grpcField.error === 'invalid_argument', JSON.stringify(grpcField).slice(0, 200));

    const elsewhere = await fetch(`${on.server().baseUrl}/v1/admin/create_user`, {
      method: 'POST',
      headers: { origin: on.server().baseUrl, 'content-type': 'application/x-ndjson', ...ADMIN_HEADERS },
      body: line({ email: 'x@import.example' }),
    });
    assert.equal(elsewhere.status, 415);
  });

  test('a body cut off midway: what was written stays, and sending the file again finishes the import', async () => {
    const file = Array.from({ length: 700 }, (_, i) => line({ email: `cut-${i}@import.example` })).join('\n');
    const cut = Buffer.from(file).subarray(0, Math.floor(file.length * 0.9));
    await new Promise<void>((resolve) => {
      const request = httpRequest(`${on.server().baseUrl}/v1/admin/import_users`, {
        method: 'POST',
        headers: { origin: on.server().baseUrl, 'content-type': 'application/x-ndjson', 'content-length': String(Buffer.byteLength(file)), ...ADMIN_HEADERS },
      });
      request.on('error', () => resolve());
      request.on('response', () => resolve());
      request.write(cut, () => setTimeout(() => request.destroy(), 300));
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const written = await em().count(User, { email: { $like: 'cut-%' } });
    assert.equal(written, 500, 'the first batch was written, the unfinished one was not');
    const again = await (await ndjson(file)).json();
    assert.deepEqual([again.created, again.unchanged, again.failed], [200, 500, 0]);
  });

  test('the stream reader: bounded lines, a body past its limit stops with the lines before it', async () => {
    async function* chunks(parts: string[]) {
      for (const part of parts) yield Buffer.from(part);
    }
    const read = async (parts: string[], maxBytes: number) => {
      const end: StreamEnd = {};
      const lines: ImportLine[] = [];
      for await (const item of linesOfStream(chunks(parts), maxBytes, end)) lines.push(item);
      return { lines, end };
    };
    const plain = await read(['a\r\nb', 'c\n\nd'], 1000);
    assert.deepEqual(plain.lines, [{ text: 'a' }, { text: 'bc' }, { text: '' }, { text: 'd' }]);
    const over = await read(['one\ntwo\n', 'three\n'], 10);
    assert.deepEqual(over.lines, [{ text: 'one' }, { text: 'two' }]);
    assert.equal(over.end.overLimit, true);
    const long = await read(['x'.repeat(MAX_LINE_BYTES), 'y\nshort'], 10 * MAX_LINE_BYTES);
    assert.deepEqual(long.lines, [{ refused: `the line is longer than ${MAX_LINE_BYTES} bytes` }, { text: 'short' }]);
  });
});

// On a server of its own, so that what is measured is the import's loop: on the server the other tests had
// filled with thousands of rows, one statement of this import held the event loop 0.8-1.2 s under load
// (SQLite runs on the event loop's thread; a write-ahead log checkpoint is the likely cause), against
// 0.07-0.14 s here.
describe('import_users: the event loop', () => {
  const fresh = orgCallersOnServer(['--roles', 'user,editor', '--default-roles', 'user']);

  test('a file of lines that need no database does not hold the event loop', async () => {
    // The server runs in this process, so this process's event loop is the server's.
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const answer = await fresh.over('rest', 'import_users', { lines: 'x\n'.repeat(200_000) }).finally(() => delay.disable());
    assert.deepEqual([answer.lines, answer.failed, answer.errors.length, answer.errors_truncated], [200_000, 200_000, 1000, true]);
    assert.ok(delay.max / 1e6 < 1000, `the event loop was held ${Math.round(delay.max / 1e6)} ms`);
  });
});
