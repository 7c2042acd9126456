/**
 * Splitting an import into lines (JSON Lines, jsonlines.org: UTF-8, one value a line, `\n` or `\r\n`), from
 * the operation's string field or from a streamed body read chunk by chunk. Memory stays bounded by one line:
 * a line longer than MAX_LINE_BYTES is not gathered, only skipped to its end and reported, and a body past
 * `maxBytes` stops the reading (docs/importing-users.md#limits).
 */
import { StringDecoder } from 'node:string_decoder';
import { MAX_LINE_BYTES } from './import-line.ts';

/** One line of the import: its text, or why it was not read. */
export type ImportLine = { readonly text: string } | { readonly refused: string };

/** What a streamed body ended with, for the answer. */
export interface StreamEnd {
  /** Set when the body went over its limit: the lines after it were not read. */
  overLimit?: boolean;
}

const TOO_LONG: ImportLine = { refused: `the line is longer than ${MAX_LINE_BYTES} bytes` };

/** The lines of the `lines` field (a string the operation's input limits already bounded). */
export function* linesOfText(text: string): Generator<ImportLine> {
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end).replace(/\r$/, '');
    if (end === text.length && line === '') return;
    yield Buffer.byteLength(line) > MAX_LINE_BYTES ? TOO_LONG : { text: line };
    start = end + 1;
  }
}

/**
 * The lines of a body read chunk by chunk. The bytes of a line are kept until its newline, at most
 * MAX_LINE_BYTES of them; past `maxBytes` of body the iteration ends with `end.overLimit` set.
 */
export async function* linesOfStream(chunks: AsyncIterable<Uint8Array>, maxBytes: number, end: StreamEnd): AsyncGenerator<ImportLine> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let skipping = false;
  let total = 0;
  const decoder = () => new StringDecoder('utf8');
  const finish = (): ImportLine => {
    const text = decoder().end(Buffer.concat(pending, pendingBytes)).replace(/\r$/, '');
    pending = [];
    pendingBytes = 0;
    return { text };
  };
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > maxBytes) {
      end.overLimit = true;
      return;
    }
    let buffer = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
    for (let newline = buffer.indexOf(0x0a); ; newline = buffer.indexOf(0x0a)) {
      const piece = newline < 0 ? buffer : buffer.subarray(0, newline);
      if (!skipping) {
        if (pendingBytes + piece.length > MAX_LINE_BYTES) {
          skipping = true;
          pending = [];
          pendingBytes = 0;
        } else if (piece.length) {
          // A copy: the chunk's memory is the stream's, and may be reused once this loop moves on.
          pending.push(Buffer.from(piece));
          pendingBytes += piece.length;
        }
      }
      if (newline < 0) break;
      if (skipping) {
        skipping = false;
        yield TOO_LONG;
      } else {
        yield finish();
      }
      buffer = buffer.subarray(newline + 1);
    }
  }
  if (skipping) yield TOO_LONG;
  else if (pendingBytes > 0) yield finish();
}
