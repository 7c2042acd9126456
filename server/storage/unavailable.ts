/**
 * Whether an error says "the database cannot be reached right now" rather than "this request is wrong" or
 * "the server has a bug": the caller may retry the same request later and it may well succeed
 * (docs/deployment.md#when-the-database-is-down). Driver-neutral, by the shapes the drivers give their
 * errors, so it needs none of them loaded; a MikroORM DriverException copies its driver error's fields, and
 * wrapped errors are followed through `cause` and an AggregateError's `errors`.
 *
 * What counts:
 * - the operating system's connection failures (Node.js errors: refused, reset, timed out, broken pipe,
 *   unknown or unreachable host);
 * - PostgreSQL SQLSTATE class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown,
 *   57P03 cannot_connect_now, 53300 too_many_connections (PostgreSQL manual, appendix A "Error Codes");
 * - `pg` and `pg-pool` losing or timing out a connection ("Connection terminated ...", "timeout expired",
 *   "timeout exceeded when trying to connect"), knex's pool acquire timeout, a pool already ended by a shutdown;
 * - MySQL/MariaDB (mysql2): a lost connection, too many connections (1040), server shutdown (1053), a
 *   killed connection (MariaDB 1927), client codes 2002/2003/2006/2013 (server gone or unreachable);
 * - MongoDB's network and server-selection errors.
 */

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
]);

/** PostgreSQL SQLSTATEs outside class 08 that mean "not now": shutdowns, start-up, connection slots full. */
const PG_NOT_NOW = new Set(['57P01', '57P02', '57P03', '53300']);

const MYSQL_CODES = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'CR_CONNECTION_ERROR',
  'CR_CONN_HOST_ERROR',
  'CR_SERVER_GONE_ERROR',
  'CR_SERVER_LOST',
]);

/** ER_CON_COUNT_ERROR, ER_SERVER_SHUTDOWN, ER_CONNECTION_KILLED (MariaDB), CR_CONNECTION_ERROR,
 * CR_CONN_HOST_ERROR, CR_SERVER_GONE_ERROR, CR_SERVER_LOST. */
const MYSQL_ERRNOS = new Set([1040, 1053, 1927, 2002, 2003, 2006, 2013]);

const MONGO_NAMES = new Set(['MongoNetworkError', 'MongoNetworkTimeoutError', 'MongoServerSelectionError', 'MongoNotConnectedError', 'MongoTopologyClosedError']);

const MESSAGES = [
  /^Connection terminated/, // pg: the server closed the socket, or connectionTimeoutMillis passed
  /^timeout exceeded when trying to connect/, // pg-pool: no client within connectionTimeoutMillis
  /^timeout expired$/, // pg: its own connectionTimeoutMillis passed while connecting
  /^Knex: Timeout acquiring a connection/,
  /Client has encountered a connection error and is not queryable/, // pg
  /^Cannot use a pool after calling end on the pool/, // pg-pool, during shutdown
  /^Pool is closed/, // mysql2, during shutdown
  /^Can't add new command when connection is in closed state/, // mysql2
  /^Connection lost: The server closed the connection/, // mysql2
];

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  errno?: unknown;
  sqlState?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

function isPgNotNow(code: string): boolean {
  return PG_NOT_NOW.has(code) || /^08[0-9A-Z]{3}$/.test(code);
}

function saysUnavailable(err: ErrorShape): boolean {
  const { code, errno, name, message } = err;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || isPgNotNow(code) || MYSQL_CODES.has(code))) return true;
  if (typeof errno === 'number' && MYSQL_ERRNOS.has(errno)) return true;
  if (typeof name === 'string' && MONGO_NAMES.has(name)) return true;
  return typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * True when `err`, or an error it wraps, says the database (or the network to it) is unavailable. The
 * search is bounded: a few levels of `cause` and the first few parts of an AggregateError.
 */
export function isStoreUnavailable(err: unknown): boolean {
  return searchUnavailable(err, 0);
}

function searchUnavailable(err: unknown, depth: number): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const shape = err as ErrorShape;
  if (saysUnavailable(shape)) return true;
  if (Array.isArray(shape.errors) && shape.errors.slice(0, 4).some((part) => searchUnavailable(part, depth + 1))) return true;
  return searchUnavailable(shape.cause, depth + 1);
}
