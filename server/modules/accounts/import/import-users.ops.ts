/**
 * `_import_users` (REST /v1/admin/import_users, gRPC AdminService.ImportUsers): an administrator brings
 * users from another system, one JSON object a line, with their password hashes
 * (docs/importing-users.md). Lines are read in order and written in batches of BATCH_SIZE, each batch one
 * transaction (import-batch.ts), so a file of any length holds one batch in memory. A line that cannot be
 * used is reported by its number with the reason and the others go on; a line that matches an existing
 * account is left as it is, so importing the same file again changes nothing. Each created account records
 * `user.created`; the pipeline writes one admin audit entry for the request (field names only, never a hash
 * or the Firebase signer key).
 */
import { setImmediate } from 'node:timers/promises';
import { defineOperation, type HandlerContext } from '../../../ops/define.ts';
import type { Static } from '../../../ops/schema.ts';
import { AppError } from '../../../kernel/errors.ts';
import { ImportUsersRequest, ImportUsersResponse } from './import-users.schema.ts';
import { firebaseParamsOf, isHeaderLine, LineRefusal, parseLineObject, readImportRecord, type ImportRecord, type LineContext } from './import-line.ts';
import { linesOfText, type ImportLine } from './import-lines.ts';
import { writeImportBatch, type LineOutcome } from './import-batch.ts';
import { storeFirebaseParams } from './import-hash-keys.ts';

/** Rows a transaction writes: a few hundred keeps each commit short and the multi-row inserts large. */
export const BATCH_SIZE = 500;
/** The longest the import reads lines before it lets the event loop serve other requests. */
const YIELD_AFTER_MS = 10;
/** Errors an answer lists; `failed` counts them all. */
export const MAX_REPORTED_ERRORS = 1000;

/**
 * Where a transport that read the lines itself (the streamed REST body) hands them to the handler: a
 * property of the input object no protocol can set, since parsed input only has string keys.
 */
export const STREAMED_LINES = Symbol('import_users streamed lines');

export type ImportUsersInput = Static<typeof ImportUsersRequest> & { [STREAMED_LINES]?: StreamedLines };

export interface StreamedLines {
  readonly lines: AsyncIterable<ImportLine>;
  /** Read after the lines end: whether the body went over its limit, and where. */
  readonly overLimit: () => string | undefined;
}

type ImportUsersAnswer = Static<typeof ImportUsersResponse>;

class ImportTally {
  readonly answer: ImportUsersAnswer = { message: '', lines: 0, created: 0, unchanged: 0, failed: 0, errors: [], errors_truncated: false };

  fail(line: number, reason: string): void {
    this.answer.failed += 1;
    if (this.answer.errors.length < MAX_REPORTED_ERRORS) this.answer.errors.push({ line, reason });
    else this.answer.errors_truncated = true;
  }

  add(outcome: LineOutcome): void {
    if (outcome.outcome === 'failed') this.fail(outcome.line, outcome.reason);
    else this.answer[outcome.outcome] += 1;
  }
}

async function* sourceOf(input: ImportUsersInput): AsyncGenerator<ImportLine> {
  const streamed = input[STREAMED_LINES];
  if (streamed) yield* streamed.lines;
  else yield* linesOfText(input.lines ?? '');
}

/** Runs an import over any source of lines; exported for the benchmark, which calls it as the handler does. */
export async function runImport(input: ImportUsersInput, ctx: HandlerContext): Promise<ImportUsersAnswer> {
  const tally = new ImportTally();
  let context: LineContext = { config: ctx.deps.config };
  const useFirebase = async (value: unknown) => {
    const keyId = await storeFirebaseParams(ctx.deps.storage.fork(), ctx.deps.sealer, ctx.deps.clock, firebaseParamsOf(value));
    context = { ...context, firebaseKeyId: keyId };
  };
  if (input.firebase_scrypt) await useFirebase(input.firebase_scrypt);
  let batch: ImportRecord[] = [];
  const flush = async () => {
    for (const outcome of await writeImportBatch(ctx, batch)) tally.add(outcome);
    batch = [];
  };
  let lineNumber = 0;
  let seenContent = false;
  let sliceStarted = performance.now();
  for await (const line of sourceOf(input)) {
    lineNumber += 1;
    // Lines that need no database (blank, malformed) would otherwise run back to back for as long as the
    // file lasts: every YIELD_AFTER_MS the event loop serves other requests (docs/importing-users.md#limits).
    if (performance.now() - sliceStarted > YIELD_AFTER_MS) {
      await setImmediate();
      sliceStarted = performance.now();
    }
    if ('refused' in line) {
      tally.fail(lineNumber, line.refused);
      continue;
    }
    if (line.text.trim() === '') continue;
    try {
      const object = parseLineObject(line.text);
      if (isHeaderLine(object)) {
        if (seenContent || input.firebase_scrypt) throw new LineRefusal('firebase_scrypt parameters may only be given once, on the first line or the request');
        await useFirebase(object.firebase_scrypt).catch((err: unknown) => {
          throw new LineRefusal(err instanceof AppError ? err.message : 'unusable firebase_scrypt parameters');
        });
        seenContent = true;
        continue;
      }
      seenContent = true;
      batch.push(readImportRecord(object, lineNumber, context));
    } catch (err) {
      if (!(err instanceof LineRefusal)) throw err;
      tally.fail(lineNumber, err.message);
    }
    if (batch.length >= BATCH_SIZE) await flush();
  }
  await flush();
  const overLimit = input[STREAMED_LINES]?.overLimit();
  if (overLimit) tally.fail(lineNumber + 1, overLimit);
  const { answer } = tally;
  answer.lines = lineNumber;
  answer.message = `Imported ${answer.created} new users; ${answer.unchanged} already existed; ${answer.failed} lines failed.`;
  return answer;
}

export const importUsersOp = defineOperation({
  name: 'import_users',
  admin: true,
  kind: 'mutation',
  description:
    'Imports users given as JSON lines (docs/importing-users.md), with profile, roles, verified flags and optionally a password ' +
    'hash (bcrypt, argon2id/argon2i, scrypt, PBKDF2, Django, Firebase scrypt) verified at sign-in and then replaced with argon2id. ' +
    'Answers counts and the failed lines with their reasons; a line matching an existing account leaves it unchanged. ' +
    'Over REST, a body of Content-Type application/x-ndjson streams the lines without the field\'s size bound',
  input: ImportUsersRequest,
  output: ImportUsersResponse,
  auth: 'admin',
  // Each batch is a transaction of its own (import-batch.ts), so a large import never holds one open for long.
  transaction: false,
  handler: (input, ctx) => runImport(input as ImportUsersInput, ctx),
});

export const importUserOperations = [importUsersOp];
