/**
 * `POST /v1/admin/import_users` with `Content-Type: application/x-ndjson` (docs/importing-users.md#over-rest):
 * the body is not buffered but read line by line while the import writes its batches, so a file of many
 * thousand users needs one batch of memory and no 1 MiB body limit. The request runs the same pipeline as
 * every operation (ops/invoke.ts runHandler: the admin check before a byte of the body is read, the handler,
 * the admin audit entry, the answer shaped by the output schema); only the lines arrive another way
 * (STREAMED_LINES). A JSON body is the generic route's, as for any operation.
 *
 * Bounds: a declared Content-Length over MAX_IMPORT_BODY_BYTES is refused with 413 before anything is read;
 * a chunked body that grows past it stops being read, the lines up to there are imported, the answer says
 * where it stopped and the connection is closed rather than drained.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, boundedMessage } from '../../kernel/errors.ts';
import { parseInput, shapeOutput } from '../../ops/validate.ts';
import { refusalOf, runHandler } from '../../ops/invoke.ts';
import { linesOfStream, STREAMED_LINES, type StreamEnd, type StreamedLines } from '../../modules/accounts/index.ts';
import { buildHttpContext } from './request-context.ts';
import { sendRefused, sendResult } from './rest-answers.ts';
import type { LeanRestHandler } from './lean-routes.ts';

/** 64 MiB: some 250,000 users of 250 bytes a line, in one request. */
export const MAX_IMPORT_BODY_BYTES = 64 * 1024 * 1024;

export const NDJSON_MEDIA_TYPES = ['application/x-ndjson', 'application/jsonl'];
const IMPORT_PATH = '/v1/admin/import_users';

const isNdjson = (request: FastifyRequest) => NDJSON_MEDIA_TYPES.includes((request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase());

/**
 * The body of an NDJSON request stays a stream for the import route; on any other route the media type is
 * one it does not take (415, as Fastify answers an unknown one).
 */
export function registerNdjsonBodyParser(http: FastifyInstance): void {
  http.addContentTypeParser(NDJSON_MEDIA_TYPES, (request, payload, done) => {
    if (request.routeOptions.url === IMPORT_PATH && request.method === 'POST') done(null, payload);
    else done(Object.assign(new Error(`${String(request.headers['content-type'])} is accepted only by POST ${IMPORT_PATH}`), { statusCode: 415 }), undefined);
  });
}

/**
 * The body's chunks; a body cut off (the client closed the connection, a broken chunked encoding) is a refusal
 * that says so rather than an unexpected error. The batches written before it stay written, and sending the
 * file again finishes the import (the lines already imported are left unchanged).
 */
async function* bodyChunks(body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* body;
  } catch {
    throw AppError.invalid('the request body could not be read to its end: send the file again (lines already imported are left unchanged)');
  }
}

export const leanImportUsersHandler: LeanRestHandler = (deps, op, generic) => async (request, reply) => {
  if (!isNdjson(request)) return generic(request, reply);
  const ctx = buildHttpContext(deps, request, 'rest');
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_IMPORT_BODY_BYTES) {
    reply.header('connection', 'close');
    return reply.status(413).send({ code: 'invalid_argument', message: boundedMessage(`the body is over ${MAX_IMPORT_BODY_BYTES} bytes: split the file`) });
  }
  const end: StreamEnd = {};
  const streamed: StreamedLines = {
    lines: linesOfStream(bodyChunks(request.body as AsyncIterable<Uint8Array>), MAX_IMPORT_BODY_BYTES, end),
    overLimit: () => (end.overLimit ? `the body is over ${MAX_IMPORT_BODY_BYTES} bytes: the lines from here on were not read` : undefined),
  };
  try {
    const input = Object.defineProperty(parseInput<Record<string, unknown>>(op.input, {}), STREAMED_LINES, { value: streamed });
    const result = shapeOutput<Record<string, unknown>>(op.output, await runHandler(op, ctx, input));
    if (end.overLimit) reply.header('connection', 'close');
    return sendResult(reply, ctx, result);
  } catch (err) {
    // The body may be unread (a refused caller): close rather than drain it.
    reply.header('connection', 'close');
    return sendRefused(reply, ctx, refusalOf(op, ctx, err));
  }
};
