/**
 * Per-request logging (transports/http/request-log.ts): one access line per request at info, naming the
 * route pattern and never the URL; request loggers made on first use that still carry the request id and
 * redact secrets (kernel/logger.ts REDACT_PATHS).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { DestinationStream } from 'pino';
import { buildApp, type App } from '../../server/app.ts';
import { parseConfig } from '../../server/config/parse.ts';
import { createLogger } from '../../server/kernel/logger.ts';
import { lazyRequestLogger } from '../../server/transports/http/request-log.ts';
import { baseFlags } from '../support/app.ts';

function capture(): { stream: DestinationStream; lines: () => Array<Record<string, unknown>> } {
  const written: string[] = [];
  return {
    stream: { write: (line: string) => void written.push(line) },
    lines: () => written.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

describe('the access line', () => {
  let app: App;
  let dir: string;
  const sink = capture();
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portcullis-request-log-'));
    const config = parseConfig([...baseFlags(dir), '--log-level', 'info']);
    app = await buildApp(config, { logger: createLogger('info', sink.stream) });
  });
  after(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('each request writes one line at info with its id, method, route pattern, status and duration', async () => {
    const before = sink.lines().length;
    const answer = await app.http.inject({
      method: 'POST',
      url: '/v1/validate_jwt_token',
      headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:8080' },
      payload: { token_type: 'access_token', token: 'not-a-token' },
    });
    assert.equal(answer.statusCode, 401);
    const access = sink.lines().slice(before).filter((line) => line.msg === 'request');
    assert.equal(access.length, 1);
    const [line] = access;
    assert.equal(line?.level, 30);
    assert.equal(line?.method, 'POST');
    assert.equal(line?.route, '/v1/validate_jwt_token');
    assert.equal(line?.status, 401);
    assert.equal(typeof line?.ms, 'number');
    assert.match(String(line?.reqId), /^[0-9a-f-]{36}$/);
  });

  test('the line names the route pattern, never the URL and its query', async () => {
    const before = sink.lines().length;
    await app.http.inject({ method: 'GET', url: '/v1/no_such_route?token=s3cret-in-query' });
    const written = sink.lines().slice(before);
    assert.equal(written.find((line) => line.msg === 'request')?.route, 'unmatched');
    assert.doesNotMatch(JSON.stringify(written), /s3cret-in-query/);
  });
});

describe('request loggers made on first use', () => {
  test('lines carry the request id and are redacted like every other line', () => {
    const sink = capture();
    const root = createLogger('info', sink.stream);
    const log = lazyRequestLogger(root as unknown as FastifyBaseLogger, { reqId: 'req-1' }, {});
    log.debug('not written at info');
    log.error({ body: { password: 'hunter2' } }, 'failed');
    log.child({ op: 'login' }).warn({ input: { token: 't0ken' } }, 'refused');
    const lines = sink.lines();
    assert.equal(lines.length, 2);
    assert.deepEqual(lines.map((line) => [line.reqId, line.msg]), [['req-1', 'failed'], ['req-1', 'refused']]);
    assert.equal(lines[1]?.op, 'login');
    assert.doesNotMatch(JSON.stringify(lines), /hunter2|t0ken/);
  });

  test('a level set on a route still gives that route a real child at that level', () => {
    const sink = capture();
    const root = createLogger('info', sink.stream);
    const log = lazyRequestLogger(root as unknown as FastifyBaseLogger, { reqId: 'req-2' }, { level: 'debug' });
    log.debug('written at debug');
    assert.deepEqual(sink.lines().map((line) => [line.reqId, line.msg]), [['req-2', 'written at debug']]);
  });
});
