/**
 * Turns argv into a validated Config with commander. Boolean flags accept `--name=true|false`,
 * `--name true|false` and a bare `--name`. The startup refusals (validate.ts) are raised as ConfigError with a one-line message naming the flag.
 */
import { readFileSync, existsSync } from 'node:fs';
import { Command, Option, InvalidArgumentError } from 'commander';
import { ALL_FLAGS, SOCIAL_PROVIDERS, camelCase, type Config, type FlagDef } from './flags.ts';
import { validateConfig } from './validate.ts';
import { SECRET_FILE_HELP, resolveSecretFiles } from './secret-files.ts';
import { API_VERSION, PORTCULLIS_VERSION } from '../version.ts';

export class ConfigError extends Error {}

/** Portcullis's own release, as outgoing requests name it in their User-Agent (server/version.ts). */
export const VERSION = PORTCULLIS_VERSION;

function parseBool(flag: string) {
  return (value: string | undefined): boolean => {
    if (value === undefined) return true;
    const v = value.toLowerCase();
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
    throw new InvalidArgumentError(`--${flag} takes true or false`);
  };
}

function parseInt10(flag: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`--${flag} takes a whole number`);
    return Number(value);
  };
}

function parseList(value: string): string[] {
  return value.split(',').map((v) => v.trim()).filter((v) => v.length > 0);
}

/** Key material is given inline as PEM or as a path to a PEM file. */
function parsePem(flag: string) {
  return (value: string): string => {
    if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
    if (!existsSync(value)) throw new InvalidArgumentError(`--${flag} is neither PEM text nor a readable file`);
    return readFileSync(value, 'utf8');
  };
}

/**
 * The default as --help shows it: none for an empty value (nothing is set) or when the help text already
 * says what the default means ("(default: the system resolver)").
 */
function defaultText(def: FlagDef): string {
  if (def.default === undefined || def.help.includes('(default:')) return '';
  const shown = Array.isArray(def.default) ? def.default.join(',') : String(def.default);
  return shown === '' ? '' : ` (default: ${shown})`;
}

function toOption(def: FlagDef): Option {
  const help = def.help + (def.secret && def.kind === 'string' ? SECRET_FILE_HELP : '') + defaultText(def);
  switch (def.kind) {
    case 'bool':
      return new Option(`--${def.name} [bool]`, help).argParser(parseBool(def.name));
    case 'int':
      return new Option(`--${def.name} <number>`, help).argParser(parseInt10(def.name));
    case 'list':
      return new Option(`--${def.name} <list>`, help).argParser(parseList);
    case 'pem':
      return new Option(`--${def.name} <pem>`, help).argParser(parsePem(def.name));
    default:
      return new Option(`--${def.name} <value>`, help);
  }
}

/** v1-style underscore flags and env files are gone since 2.x (README "Configuration": flags only). */
function rejectRetiredSyntax(argv: readonly string[]): void {
  for (const arg of argv) {
    if (!arg.startsWith('--')) continue;
    const name = arg.slice(2).split('=')[0] ?? '';
    if (/^env[-_]?file$/i.test(name)) {
      throw new ConfigError(`--${name} is not supported: configuration comes from command-line flags only`);
    }
    if (name.includes('_')) {
      throw new ConfigError(`--${name} is a v1-style flag name and is not supported; use --${name.replace(/_/g, '-').toLowerCase()}`);
    }
  }
}

export function buildCommand(): Command {
  const cmd = new Command('portcullis')
    .description('Portcullis identity and access server. Every setting is a flag; no environment variable or configuration file is read (secret flags may name a file holding the secret: --admin-secret file:<path>).')
    .version(`portcullis ${PORTCULLIS_VERSION} (API ${API_VERSION})`, '-v, --version', 'print Portcullis\'s version and the API version it is compatible with')
    .helpOption('-h, --help', 'show every flag with its default')
    .allowExcessArguments(false)
    .configureOutput({ writeErr: () => undefined, writeOut: (s) => process.stdout.write(s) })
    .exitOverride();
  for (const def of ALL_FLAGS) cmd.addOption(toOption(def));
  return cmd;
}

/**
 * --<provider>-base-url: an absolute http(s) URL without credentials, query or fragment, kept without a
 * trailing slash. Refused otherwise: a relative or odd URL would send the code exchange somewhere unintended.
 */
function socialBaseUrl(provider: string, value: string | undefined): { baseUrl?: string } {
  if (value === undefined || value === '') return {};
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`--${provider}-base-url must be an absolute http(s) URL`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || url.search || url.hash) {
    throw new ConfigError(`--${provider}-base-url must be an absolute http(s) URL without credentials, query or fragment`);
  }
  return { baseUrl: url.href.replace(/\/+$/, '') };
}

/** Parses user arguments (without node and script). Throws ConfigError on any refusal. */
export function parseConfig(argv: readonly string[]): Config {
  rejectRetiredSyntax(argv);
  const cmd = buildCommand();
  try {
    cmd.parse([...argv], { from: 'user' });
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') throw err;
    throw new ConfigError((e.message ?? String(err)).replace(/^error: /, ''));
  }
  const opts = cmd.opts<Record<string, unknown>>();
  const config: Record<string, unknown> = { social: {} };
  for (const def of ALL_FLAGS) {
    const key = camelCase(def.name);
    const value = opts[key];
    config[key] = value === undefined ? (Array.isArray(def.default) ? [...def.default] : def.default) : value;
  }
  try {
    resolveSecretFiles(ALL_FLAGS, config);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const social: Config['social'] = {};
  for (const provider of SOCIAL_PROVIDERS) {
    const clientId = config[camelCase(`${provider}-client-id`)] as string | undefined;
    if (!clientId) continue;
    social[provider] = {
      clientId,
      clientSecret: (config[camelCase(`${provider}-client-secret`)] as string | undefined) ?? '',
      scopes: (config[camelCase(`${provider}-scopes`)] as string[] | undefined) ?? [],
      ...(provider === 'microsoft' ? { tenantId: config[camelCase('microsoft-tenant-id')] as string } : {}),
      ...socialBaseUrl(provider, config[camelCase(`${provider}-base-url`)] as string | undefined),
    };
  }
  config.social = social;
  const typed = config as unknown as Config;
  const problem = validateConfig(typed);
  if (problem) throw new ConfigError(problem);
  return typed;
}
