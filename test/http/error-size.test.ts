/**
 * Public error messages are bounded in every protocol (kernel/errors.ts MAX_PUBLIC_MESSAGE): a message
 * that quotes the request (an unknown path, a bad value) must not echo kilobytes of it back.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../support/app.ts';
import { restClient } from '../support/rest-client.ts';
import { MAX_PUBLIC_MESSAGE, boundedMessage } from '../../server/kernel/errors.ts';

describe('error messages are bounded', () => {
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server?.close());

  test('a REST 404 for a 8,000-character path answers a message of at most 1,024 characters', async () => {
    const reply = await restClient(server).get(`/v1/${'x'.repeat(8000)}`);
    assert.equal(reply.status, 404);
    assert.equal(reply.body.code, 'not_found');
    assert.ok(reply.body.message.length <= MAX_PUBLIC_MESSAGE, `message of ${reply.body.message.length} characters`);
    assert.ok(reply.body.message.endsWith('...'));
  });

  test('boundedMessage keeps short messages and never splits a surrogate pair', () => {
    assert.equal(boundedMessage('short'), 'short');
    const emoji = '\u{1F600}';
    for (let pad = 0; pad < 2; pad++) {
      const cut = boundedMessage('a'.repeat(pad) + emoji.repeat(1000));
      assert.ok(cut.length <= MAX_PUBLIC_MESSAGE);
      assert.ok(!/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/.test(cut), 'no lone high surrogate left at the cut');
    }
  });
});
