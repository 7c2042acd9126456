/**
 * The flags a deployment example gives the server, checked by the server's own parser (server/config/parse.ts):
 * the image's entrypoint flags (Dockerfile ENTRYPOINT) followed by the example's, as the container runs them.
 * An unknown flag, a value of the wrong kind or a startup refusal (validate.ts) throws the ConfigError the
 * server would print. Secret files (`file:<path>`) do not exist here, so each is replaced by a temporary file
 * holding a placeholder of the right shape; which flags name files is returned for the examples' own checks.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_FLAGS, type Config, type FlagDef } from '../../../server/config/flags.ts';
import { parseConfig } from '../../../server/config/parse.ts';
import { SECRET_FILE_PREFIX } from '../../../server/config/secret-files.ts';

const REPO = join(import.meta.dirname, '../../..');

/** What a secret file of each flag would hold, for the parser to accept it. */
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  'database-url': 'postgres://portcullis@postgres:5432/portcullis',
  'redis-url': 'redis://redis:6379',
  'jwt-secret': 'placeholder-jwt-secret-0123456789abcdef-0123456789abcdef',
};

export interface ServerArgs {
  readonly config: Config;
  /** Flag name to its value as written (after the entrypoint's, later ones win, as the parser does). */
  readonly given: ReadonlyMap<string, string>;
  /** Flag name to the path it reads with `file:`. */
  readonly files: ReadonlyMap<string, string>;
}

/** The flags of the image's ENTRYPOINT after the executable (Dockerfile's exec form). */
export function entrypointFlags(): string[] {
  const line = readFileSync(join(REPO, 'Dockerfile'), 'utf8').split('\n').findLast((l) => l.startsWith('ENTRYPOINT '));
  if (!line) throw new Error('the Dockerfile has no ENTRYPOINT');
  const [, ...flags] = JSON.parse(line.slice('ENTRYPOINT '.length)) as string[];
  return flags;
}

export function flagDef(name: string): FlagDef | undefined {
  return ALL_FLAGS.find((def) => def.name === name);
}

/** Splits `--name=value` and `--name value` into pairs; a bare `--name` is a boolean's true. */
function pairs(args: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new Error(`${arg}: not a flag (every setting is a --flag)`);
    const eq = arg.indexOf('=');
    if (eq > 0) out.push([arg.slice(2, eq), arg.slice(eq + 1)]);
    else if (flagDef(arg.slice(2))?.kind === 'bool' && !/^(true|false|1|0)$/i.test(args[i + 1] ?? '')) out.push([arg.slice(2), 'true']);
    else out.push([arg.slice(2), args[++i] ?? '']);
  }
  return out;
}

export function parseServerArgs(args: readonly string[]): ServerArgs {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-deploy-args-'));
  const given = new Map<string, string>();
  const files = new Map<string, string>();
  const argv: string[] = [];
  for (const [name, value] of pairs([...entrypointFlags(), ...args])) {
    given.set(name, value);
    let effective = value;
    if (value.startsWith(SECRET_FILE_PREFIX) && flagDef(name)?.secret) {
      files.set(name, value.slice(SECRET_FILE_PREFIX.length));
      const stand = join(dir, name);
      writeFileSync(stand, `${PLACEHOLDERS[name] ?? `placeholder-${name}`}\n`);
      effective = `${SECRET_FILE_PREFIX}${stand}`;
    }
    argv.push(`--${name}=${effective}`);
  }
  return { config: parseConfig(argv), given, files };
}

/** An IPv4 CIDR as [first, last] addresses (numbers), or undefined when it is not one. */
export function ipv4Range(cidr: string): [number, number] | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)\.(\d+)(?:\/(\d+))?$/.exec(cidr.trim());
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const bits = match[5] === undefined ? 32 : Number(match[5]);
  if (octets.some((o) => o > 255) || bits > 32) return undefined;
  const address = octets.reduce((n, o) => n * 256 + o, 0);
  const size = 2 ** (32 - bits);
  const first = address - (address % size);
  return [first, first + size - 1];
}
