/**
 * Where to connect, from the --database-* flags (docs/configuration.md: --database-url, or
 * --database-host/-port/-name/-username/-password; TLS material from --database-cert, -ca-cert,
 * -cert-key). Parts given as flags win over the same parts of the URL, so a password can stay out of
 * the URL. `label` names the target for messages and logs and never carries the password.
 */
import type { Config } from '../config/flags.ts';
import type { DatabaseKind } from './types.ts';

export interface ConnectionTarget {
  kind: DatabaseKind;
  /** The --database-type as given (postgres, cockroachdb, ...). */
  type: string;
  /** SQLite: the file path or ':memory:'. */
  file?: string;
  url?: string;
  host?: string;
  port?: number;
  dbName?: string;
  user?: string;
  password?: string;
  /** PEM texts; present when any TLS flag or a TLS URL parameter asks for TLS. */
  tls?: { ca?: string; cert?: string; key?: string; rejectUnauthorized: boolean };
  /** host:port/name or the file path: safe to show. */
  label: string;
  /** Strings that must never appear in a message: the password and the URL that may embed it. */
  secrets: string[];
}

const KIND_BY_TYPE: Record<string, DatabaseKind> = {
  sqlite: 'sqlite',
  postgres: 'postgres',
  postgresql: 'postgres',
  cockroachdb: 'postgres',
  yugabyte: 'postgres',
  mysql: 'mysql',
  mariadb: 'mariadb',
  mongodb: 'mongodb',
};

const DEFAULT_PORT: Record<DatabaseKind, number> = { sqlite: 0, postgres: 5432, mysql: 3306, mariadb: 3306, mongodb: 27017 };

export function databaseKind(type: string): DatabaseKind {
  const kind = KIND_BY_TYPE[type.toLowerCase()];
  if (!kind) throw new Error(`unsupported --database-type "${type}"`);
  return kind;
}

/** `sqlite:`/`file:` prefixes are accepted so a URL-shaped value works too. */
function sqliteFile(value: string): string {
  return value.replace(/^sqlite:(\/\/)?/, '').replace(/^file:(\/\/)?/, '') || ':memory:';
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** TLS asked for in the URL: libpq's sslmode, or ssl=true / tls=true. `require` encrypts without verifying. */
function tlsFromUrl(url: URL | undefined): { rejectUnauthorized: boolean } | undefined {
  if (!url) return undefined;
  const mode = url.searchParams.get('sslmode')?.toLowerCase();
  if (mode === 'require') return { rejectUnauthorized: false };
  if (mode === 'verify-ca' || mode === 'verify-full') return { rejectUnauthorized: true };
  const flag = (url.searchParams.get('ssl') ?? url.searchParams.get('tls'))?.toLowerCase();
  if (flag === 'true' || flag === '1') return { rejectUnauthorized: true };
  return undefined;
}

function tlsOptions(config: Config, url: URL | undefined): ConnectionTarget['tls'] {
  const material = { ca: config.databaseCaCert, cert: config.databaseCert, key: config.databaseCertKey };
  const fromUrl = tlsFromUrl(url);
  if (!material.ca && !material.cert && !material.key && !fromUrl) return undefined;
  const tls: NonNullable<ConnectionTarget['tls']> = { rejectUnauthorized: fromUrl?.rejectUnauthorized ?? true };
  if (material.ca) tls.ca = material.ca;
  if (material.cert) tls.cert = material.cert;
  if (material.key) tls.key = material.key;
  return tls;
}

export function connectionTarget(config: Config): ConnectionTarget {
  const type = config.databaseType;
  const kind = databaseKind(type);
  if (kind === 'sqlite') {
    const file = sqliteFile(config.databaseUrl ?? config.databaseName ?? ':memory:');
    return { kind, type, file, label: file, secrets: [] };
  }
  const url = config.databaseUrl ? parseUrl(config.databaseUrl) : undefined;
  if (config.databaseUrl && !url) throw new Error('--database-url is not a valid URL');
  const fromUrl = (value: string | undefined) => (value ? decodeURIComponent(value) : undefined);
  const host = config.databaseHost ?? fromUrl(url?.hostname) ?? '127.0.0.1';
  const port = config.databasePort ?? (url?.port ? Number(url.port) : DEFAULT_PORT[kind]);
  const dbName = config.databaseName ?? fromUrl(url?.pathname.replace(/^\//, ''));
  const user = config.databaseUsername ?? fromUrl(url?.username);
  const password = config.databasePassword ?? fromUrl(url?.password);
  const secrets = [config.databaseUrl, config.databasePassword, password, url?.password]
    .filter((s): s is string => typeof s === 'string' && s.length > 0);
  return {
    kind,
    type,
    url: config.databaseUrl,
    host,
    port,
    dbName,
    user,
    password,
    tls: tlsOptions(config, url),
    label: `${host}:${port}/${dbName ?? ''}`,
    secrets,
  };
}
