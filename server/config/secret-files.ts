/**
 * Secret flags given as `file:<path>` (OWASP ASVS 4.0 2.10.4 and 6.4.1: secrets are not exposed where other
 * local users can read them). A value on the command line is visible to every local user in the process
 * list (/proc/<pid>/cmdline, `ps`), so each flag marked secret in flags.ts also accepts the path of a file
 * holding it, the way the key flags accept a PEM path. One trailing newline is dropped, as `echo` and most
 * editors add one. A file that cannot be read is a one-line startup refusal naming the flag and the path,
 * never the content.
 */
import { readFileSync } from 'node:fs';
import { camelCase, type FlagDef } from './flags.ts';

export const SECRET_FILE_PREFIX = 'file:';

/** Help text suffix of every secret flag taking a value. */
export const SECRET_FILE_HELP = '; or file:<path> to read it from a file, which keeps it out of the process list';

/**
 * A SQLite `--database-url file:./x.db` (or `--fga-store-url` with `--fga-store sqlite`) names the database
 * file itself (storage/connection-target.ts), so for SQLite those two keep their meaning: a SQLite path is
 * no secret.
 */
function namesSqliteFile(def: FlagDef, config: Record<string, unknown>): boolean {
  if (def.name === 'database-url') return String(config.databaseType ?? '').toLowerCase() === 'sqlite';
  if (def.name === 'fga-store-url') return String(config.fgaStore ?? '').trim().toLowerCase() === 'sqlite';
  return false;
}

export function readSecretFile(flag: string, path: string): string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new Error(`--${flag} file:${path} cannot be read (${code})`);
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') throw new Error(`--${flag} file:${path} is empty`);
  return value;
}

/**
 * Replaces, in the camelCase config record, each `file:<path>` value of a secret string flag by the file's
 * content. Throws a one-line Error naming the flag on an unreadable or empty file.
 */
export function resolveSecretFiles(defs: readonly FlagDef[], config: Record<string, unknown>): void {
  for (const def of defs) {
    if (!def.secret || def.kind !== 'string') continue;
    const key = camelCase(def.name);
    const value = config[key];
    if (typeof value !== 'string' || !value.startsWith(SECRET_FILE_PREFIX)) continue;
    if (namesSqliteFile(def, config)) continue;
    config[key] = readSecretFile(def.name, value.slice(SECRET_FILE_PREFIX.length));
  }
}
