/**
 * The logger's destination (pino's DestinationStream): lines are gathered in memory and handed to stdout
 * (sonic-boom, writing synchronously) as one string once about 4 KiB have gathered, 200 ms after the first
 * line of a batch at the latest, when the logger is flushed, and at exit. Two reasons:
 * - a write per line costs a system call per request, as every request writes its access line;
 * - sonic-boom's own buffering measures the byte length of the whole pending text on every line (it
 *   concatenates lines into one string and calls Buffer.byteLength on it each time), which flattens and
 *   scans up to a few KiB per line; here a line costs an array push and its length in characters.
 * Writing stays sonic-boom's (partial writes, EAGAIN retries, EPIPE handling by pino's wrapper).
 */
import type { DestinationStream } from 'pino';

/** Where batches go: a synchronous writer (pino.destination with sync: true), so a flush is done on return. */
export interface LineSink {
  write(text: string): unknown;
}

export interface BatchingOptions {
  /** Characters gathered before a write (a line of multi-byte text counts its characters, not its bytes). */
  readonly batchChars: number;
  /** The longest a line waits for its batch to fill, in milliseconds. */
  readonly maxDelayMs: number;
}

const open = new Set<LineBatcher>();
let exitHookInstalled = false;

/** One process 'exit' listener for every open batcher (a listener per logger would pile up in tests). */
function writeAllAtExit(batcher: LineBatcher): void {
  open.add(batcher);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const each of open) each.flush();
  });
}

export class LineBatcher implements DestinationStream {
  readonly #sink: LineSink;
  readonly #options: BatchingOptions;
  #lines: string[] = [];
  #chars = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(sink: LineSink, options: BatchingOptions) {
    this.#sink = sink;
    this.#options = options;
    writeAllAtExit(this);
  }

  write(line: string): boolean {
    this.#lines.push(line);
    this.#chars += line.length;
    if (this.#chars >= this.#options.batchChars) this.flush();
    else this.#timer ??= setTimeout(() => this.flush(), this.#options.maxDelayMs).unref();
    return true;
  }

  /** Hands what has gathered to the sink now (pino's logger.flush() and the exit hook call it). */
  flush(done?: (err?: Error) => void): void {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    if (this.#lines.length > 0) {
      const text = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('');
      this.#lines = [];
      this.#chars = 0;
      this.#sink.write(text);
    }
    done?.();
  }

  flushSync(): void {
    this.flush();
  }

  /** Writes what has gathered and stops watching for exit (a logger that is done). */
  end(): void {
    this.flush();
    open.delete(this);
  }
}
