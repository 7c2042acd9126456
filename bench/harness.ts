/**
 * What every benchmark script does besides measuring: read its arguments, and talk JSON to the server it
 * started (sign a user up, log in, check the token validates) before the load begins.
 */
import { resolve } from 'node:path';

/** `--name value` from argv as a positive number, or the fallback. */
export function numberArg(argv: readonly string[], name: string, fallback: number): number {
  const index = argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} takes a positive number`);
  return value;
}

/** `--name value` from argv, or undefined when the flag is absent; a flag without its value is refused. */
export function stringArg(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(`--${name}`);
  if (index < 0) return undefined;
  const value = argv[index + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} takes a value`);
  return value;
}

/** `--name value` from argv as a whole number >= 1, or the fallback (row and sample counts). */
export function wholeArg(argv: readonly string[], name: string, fallback: number): number {
  const text = stringArg(argv, name);
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number >= 1`);
  return value;
}

/** `--stores a,b` from argv, each one of `allowed`, or the fallback list. */
export function storesArg<Store extends string>(argv: readonly string[], allowed: readonly Store[], fallback: readonly Store[]): Store[] {
  const text = stringArg(argv, 'stores');
  if (text === undefined) return [...fallback];
  const stores = text.split(',').map((store) => store.trim());
  for (const store of stores) if (!(allowed as readonly string[]).includes(store)) throw new Error(`--stores: unknown store ${store}`);
  return stores as Store[];
}

/** `--executable PATH` (another build to measure than dist/portcullis), resolved against the working folder. */
export function executableArg(argv: readonly string[]): string | undefined {
  const path = stringArg(argv, 'executable');
  return path === undefined ? undefined : resolve(path);
}

export const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

/** POSTs JSON as a browser on `origin` would (the CSRF rule wants an Origin); anything but 200 throws. */
export async function postJson(url: string, origin: string, body: unknown, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}: ${JSON.stringify(answer)}`);
  return answer;
}

export interface SignedIn {
  readonly token: string;
  /** What validate_jwt_token answered for the token. */
  readonly validated: Record<string, unknown> & { claims: Record<string, unknown> };
}

/** Signs `credentials` up on the server at `base`, logs in, and checks the access token validates. */
export async function signUpAndLogIn(base: string, credentials: { email: string; password: string }): Promise<SignedIn> {
  await postJson(`${base}/v1/signup`, base, { ...credentials, confirm_password: credentials.password });
  const login = await postJson(`${base}/v1/login`, base, credentials);
  const token = login.access_token;
  if (typeof token !== 'string') throw new Error('login answered no access_token');
  const validated = await postJson(`${base}/v1/validate_jwt_token`, base, { token_type: 'access_token', token });
  if (validated.is_valid !== true || typeof validated.claims !== 'object' || validated.claims === null) {
    throw new Error(`validation answered ${JSON.stringify(validated)}`);
  }
  return { token, validated: validated as SignedIn['validated'] };
}
