/**
 * JSON lines to stdout with pino, level per --log-level. No transports (worker threads break the single
 * executable, stack-notes.md). Secrets are redacted by path as a second line of defence.
 */
import pino, { type Logger, type DestinationStream } from 'pino';

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

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'portcullis' },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    destination ?? pino.destination({ fd: 1, sync: false }),
  );
}
