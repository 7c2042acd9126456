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
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { buildApp, type App } from '../../server/app.ts';
import { parseConfig } from '../../server/config/parse.ts';
import { createLogger } from '../../server/kernel/logger.ts';
import { accessLogger, lazyRequestLogger } from '../../server/transports/http/request-log.ts';
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

  test('the line is the one pino writes for the same fields, escaped, and only at an enabled level', () => {
    const fixedTime = () => ',"time":"2026-01-01T00:00:00.000Z"';
    const lineFor = (level: string, fields: { id: string; method: string; route: string; status: number; ms: number }) => {
      const ours = capture();
      const theirs = capture();
      const options = { level, base: { service: 'portcullis' }, timestamp: fixedTime };
      accessLogger(pino(options, ours.stream))({ id: fields.id, method: fields.method } as FastifyRequest, { statusCode: fields.status, elapsedTime: fields.ms } as FastifyReply, fields.route);
      pino(options, theirs.stream).info({ reqId: fields.id, method: fields.method, route: fields.route, status: fields.status, ms: Math.round(fields.ms) }, 'request');
      return { ours: ours.lines(), theirs: theirs.lines() };
    };
    const plain = lineFor('info', { id: 'a4c1d7c2-4f0e-4c4e-9f55-6b1e3f1c2b7a', method: 'POST', route: '/v1/login', status: 200, ms: 1.6 });
    assert.deepEqual(plain.ours, plain.theirs);
    assert.equal(plain.ours[0]?.ms, 2);
    // A method is whatever token the client sent and a route pattern may hold any character: both stay strings.
    const odd = lineFor('info', { id: 'x"y', method: 'GE"T\u0001', route: '/a/"b"\n/:c', status: 404, ms: 0 });
    assert.deepEqual(odd.ours, odd.theirs);
    assert.equal(odd.ours[0]?.route, '/a/"b"\n/:c');
    assert.deepEqual(lineFor('warn', { id: 'r', method: 'GET', route: '/', status: 200, ms: 0 }).ours, []);
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
