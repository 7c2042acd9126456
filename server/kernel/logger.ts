/**
 * JSON lines to stdout with pino, level per --log-level. No transports (pino's transports run in worker
 * threads loaded from files, which the single executable does not have). Secrets are redacted by path as a second line of defence.
 */
import pino, { type Logger, type DestinationStream } from 'pino';
import { LineBatcher } from './line-batcher.ts';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-service-admin-secret"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.admin_secret',
  '*.client_secret',
  '*.token',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
];

/**
 * Lines are gathered up to 4 KiB (a score of access lines) before one synchronous write (line-batcher.ts),
 * and whatever is gathered is written within 200 ms, when the logger is flushed and at exit. Written line by
 * line, each request's access line cost a system call (or, with sync: false, a write handed to the libuv
 * thread pool: about 8 us of CPU per line); the delay before a line reaches stdout stays under a fifth of a
 * second.
 */
const STDOUT_BATCHING = { batchChars: 4096, maxDelayMs: 200 } as const;

/**
 * pino's isoTime (`,"time":"<ISO 8601>"`), made once per millisecond: every access line of a busy second
 * would otherwise format the same Date again (about 2% of a token validation's CPU). Same text as isoTime
 * for every millisecond; Date.now() is read on every line, so a line is never stamped late.
 */
export function isoTimeOncePerMs(): () => string {
  let lastMs = -1;
  let text = '';
  return () => {
    const now = Date.now();
    if (now !== lastMs) {
      lastMs = now;
      text = `,"time":"${new Date(now).toISOString()}"`;
    }
    return text;
  };
}

/** `labels` go on every line beside the service name: `env` from --env, so instances sharing a log pipeline can be told apart. */
export function createLogger(level: string, destination?: DestinationStream, labels: Readonly<Record<string, string>> = {}): Logger {
  return pino(
    {
      level,
      base: { service: 'portcullis', ...labels },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: isoTimeOncePerMs(),
    },
    destination ?? new LineBatcher(pino.destination({ fd: 1, sync: true }), STDOUT_BATCHING),
  );
}
