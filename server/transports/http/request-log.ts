/**
 * What logging costs a request of the main listener, kept to what it writes:
 * - Fastify gives every request a child logger bound to its request id. Made eagerly, that is a pino
 *   child per request, with the redaction paths applied to its bindings, for a logger most requests never
 *   write to; here it is made on the first line written at an enabled level.
 * - The access line (`request`: method, route pattern, status, milliseconds, request id) is written at
 *   info for every request. Its fields are all the server's own (the route pattern, never the URL with
 *   its query) and its shape never changes, so it skips pino's generic path (the redaction pass, which
 *   cost more than the rest of the line, and the walk over an object's keys): the line is put together
 *   from the logger's own parts (its level number, timestamp and bindings: pino.symbols) in the order pino
 *   writes them, each string field JSON-escaped, and handed to the logger's destination. Every other line
 *   goes through pino and keeps redaction.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import pino, { type Bindings, type ChildLoggerOptions, type Level, type LevelWithSilentOrString, type Logger } from 'pino';

const ANY_OPTION = (options: ChildLoggerOptions): boolean => Object.keys(options).length > 0;

/** A request's logger: the pino child is made when a line at an enabled level is first written. */
class LazyChildLogger {
  readonly #parent: Logger;
  readonly #bindings: Bindings;
  #child: Logger | undefined;

  constructor(parent: Logger, bindings: Bindings) {
    this.#parent = parent;
    this.#bindings = bindings;
  }

  #real(): Logger {
    this.#child ??= this.#parent.child(this.#bindings);
    return this.#child;
  }

  #write(level: Level, args: unknown[]): void {
    if (!this.#parent.isLevelEnabled(level)) return;
    (this.#real()[level] as (...line: unknown[]) => void)(...args);
  }

  get level(): LevelWithSilentOrString {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(level: LevelWithSilentOrString) {
    this.#real().level = level;
  }

  isLevelEnabled(level: LevelWithSilentOrString): boolean {
    return (this.#child ?? this.#parent).isLevelEnabled(level);
  }

  bindings(): Bindings {
    return this.#real().bindings();
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.#real().child(bindings, options);
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }

  error(...args: unknown[]): void {
    this.#write('error', args);
  }

  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }

  info(...args: unknown[]): void {
    this.#write('info', args);
  }

  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }

  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }

  silent(): void {}
}

/** Fastify's childLoggerFactory: a lazy child, or pino's own when a route sets a level or serializers. */
export function lazyRequestLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  const parent = logger as unknown as Logger;
  if (ANY_OPTION(options)) return parent.child(bindings, options) as unknown as FastifyBaseLogger;
  return new LazyChildLogger(parent, bindings) as unknown as FastifyBaseLogger;
}

/** The parts of a pino logger its lines are made of (pino.symbols, pino's interface for integrations). */
interface PinoParts {
  /** The destination lines are written to. */
  readonly stream: { write(line: string): unknown };
  /** `,"time":...` (or '' without timestamps). */
  readonly time: () => string;
  /** The logger's bindings as JSON members, each with its leading comma (`,"service":"portcullis"`). */
  readonly bindings: string;
}

function partsOf(logger: Logger): PinoParts {
  const parts = logger as unknown as Record<symbol, unknown>;
  const { streamSym, timeSym, chindingsSym } = pino.symbols;
  return {
    stream: parts[streamSym] as PinoParts['stream'],
    time: parts[timeSym] as PinoParts['time'],
    bindings: parts[chindingsSym] as string,
  };
}

/** Writes the access line of each request at info, as pino would write `logger.info({reqId, ...}, 'request')`. */
export function accessLogger(logger: Logger): (request: FastifyRequest, reply: FastifyReply, route: string) => void {
  const { stream, time, bindings } = partsOf(logger);
  const level = logger.levels.values.info;
  return (request, reply, route) => {
    if (!logger.isLevelEnabled('info')) return;
    stream.write(
      `{"level":${level}${time()}${bindings},"reqId":${JSON.stringify(request.id)},"method":${JSON.stringify(request.method)},` +
        `"route":${JSON.stringify(route)},"status":${reply.statusCode},"ms":${Math.round(reply.elapsedTime)},"msg":"request"}\n`,
    );
  };
}
