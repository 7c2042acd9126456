/**
 * What logging costs a request of the main listener, kept to what it writes:
 * - Fastify gives every request a child logger bound to its request id. Made eagerly, that is a pino
 *   child per request, with the redaction paths applied to its bindings, for a logger most requests never
 *   write to; here it is made on the first line written at an enabled level.
 * - The access line (`request`: method, route pattern, status, milliseconds, request id) is written at
 *   info for every request. Its fields are all the server's own (the route pattern, never the URL with
 *   its query), so it goes through a child without the redaction pass (kernel/logger.ts REDACT_PATHS),
 *   which costs more than the rest of the line; every other line keeps redaction.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Bindings, ChildLoggerOptions, Level, LevelWithSilentOrString, Logger } from 'pino';

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

/** Writes the access line of each request, at info, through a logger made once. */
export function accessLogger(logger: Logger): (request: FastifyRequest, reply: FastifyReply, route: string) => void {
  const access = logger.child({}, { redact: { paths: [] } });
  return (request, reply, route) => {
    if (!access.isLevelEnabled('info')) return;
    access.info({ reqId: request.id, method: request.method, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  };
}
