/**
 * The server-side state of one browser redirect sign-in, between sending the browser away (to a social
 * provider, an organization's OIDC IdP or SAML IdP) and its return. Each kind keeps its own table, cookie and
 * lifetime (social/login-state.ts, org-sso/login-state.ts, org-sso/saml-login-state.ts); the rules are these:
 *
 * - A random handle (OAuth `state`, SAML RelayState) names the row by its SHA-256, so the database never
 *   holds a value that finishes a flow (RFC 6749 section 10.12 CSRF defence).
 * - The row is bound to the browser that started it by the digest of a short-lived HttpOnly cookie (RFC 9700
 *   section 4.7.1: state bound to the user agent), so a return replayed in another browser (login CSRF, a
 *   leaked URL) finds no match. A browser keeps its binding value across flows (two tabs signing in at once
 *   both finish); a missing or malformed one is replaced by a fresh random value.
 * - A row is used once and not after its lifetime; expired rows are swept when new flows start, at most once a
 *   minute (storage/single-use.ts).
 */
import { createHash } from 'node:crypto';
import type { EntityName, FilterQuery, RequiredEntityData } from '@mikro-orm/core';
import type { Config } from '../../config/flags.ts';
import type { Deps } from '../../kernel/deps.ts';
import type { CookieSpec } from '../../kernel/effects.ts';
import { constantTimeEqual, randomToken, sha256Hex } from '../../kernel/crypto.ts';
import { sweepExpiredIfDue } from '../../storage/single-use.ts';

/** What randomToken(32) gives: a presented binding of any other shape is not ours. */
const BINDING_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The columns every flow table has; each kind's entity adds its own. */
export interface BrowserFlowRow {
  id: string;
  bindingHash: string;
  expiresAt: Date;
  createdAt: Date;
}

/** A kind's own columns, written at the start and read back at the return. */
export type BrowserFlowFields<Row extends BrowserFlowRow> = Omit<Row, keyof BrowserFlowRow>;

export interface BrowserFlowKind<Row extends BrowserFlowRow> {
  entity: EntityName<Row>;
  lifetimeSeconds: number;
  /** The longest handle taken back; a longer one is unknown without a database read. */
  maxHandleLength: number;
  /**
   * The binding cookie, HttpOnly and Secure per --app-cookie-secure. 'None' is sent as Lax when the cookie
   * cannot be Secure, as browsers drop SameSite=None cookies that are not.
   */
  cookie: { name: string; path: string; sameSite: 'Lax' | 'None' };
}

export interface StartedBrowserFlow {
  /** Sent away with the browser (`state`, RelayState); names the row. */
  handle: string;
  /** Set on the answer: binds the flow to this browser. */
  bindingCookie: CookieSpec;
}

export type TakenBrowserFlow<Row> = { ok: true; row: Row } | { ok: false; reason: 'unknown' | 'wrong_browser' };

function bindingCookie(config: Pick<Config, 'appCookieSecure'>, cookie: BrowserFlowKind<BrowserFlowRow>['cookie'], value: string, maxAge: number): CookieSpec {
  const secure = config.appCookieSecure;
  const sameSite = cookie.sameSite === 'None' && !secure ? 'Lax' : cookie.sameSite;
  return { name: cookie.name, value, maxAge, httpOnly: true, secure, sameSite, path: cookie.path };
}

/** Writes the flow's row with the kind's own `fields`. */
export async function startBrowserFlow<Row extends BrowserFlowRow>(
  deps: Pick<Deps, 'config' | 'storage' | 'clock'>,
  kind: BrowserFlowKind<Row>,
  presentedBinding: string | undefined,
  fields: BrowserFlowFields<Row>,
): Promise<StartedBrowserFlow> {
  const binding = presentedBinding && BINDING_PATTERN.test(presentedBinding) ? presentedBinding : randomToken(32);
  const handle = randomToken(32);
  const now = deps.clock.now();
  const em = deps.storage.fork();
  // Housekeeping: expired flows go when new ones start, at most once a minute (not a write per sign-in).
  await sweepExpiredIfDue(em, kind.entity, deps, now);
  em.create(kind.entity, {
    ...fields,
    id: sha256Hex(handle),
    bindingHash: sha256Hex(binding),
    expiresAt: new Date(now.getTime() + kind.lifetimeSeconds * 1000),
    createdAt: now,
  } as RequiredEntityData<Row>);
  await em.flush();
  return { handle, bindingCookie: bindingCookie(deps.config, kind.cookie, binding, kind.lifetimeSeconds) };
}

/**
 * Finds and deletes the flow named by `handle` if this browser started it, it has not expired and `belongs`
 * accepts it. The delete is the single-use check: of two concurrent returns only one deletes the row. A
 * mismatched browser does not burn the row (someone who merely saw the URL or the response cannot cancel
 * the real flow).
 */
export async function takeBrowserFlow<Row extends BrowserFlowRow>(
  deps: Pick<Deps, 'storage' | 'clock'>,
  kind: BrowserFlowKind<Row>,
  handle: string | undefined,
  presentedBinding: string | undefined,
  belongs: (row: Row) => boolean = () => true,
): Promise<TakenBrowserFlow<Row>> {
  if (!handle || handle.length > kind.maxHandleLength) return { ok: false, reason: 'unknown' };
  const em = deps.storage.fork();
  const id = sha256Hex(handle);
  const row = (await em.findOne(kind.entity, { id } as FilterQuery<Row>)) as Row | null;
  if (!row || !belongs(row) || row.expiresAt.getTime() <= deps.clock.now().getTime()) return { ok: false, reason: 'unknown' };
  if (!presentedBinding || !constantTimeEqual(sha256Hex(presentedBinding), row.bindingHash)) return { ok: false, reason: 'wrong_browser' };
  if ((await em.nativeDelete(kind.entity, { id } as FilterQuery<Row>)) !== 1) return { ok: false, reason: 'unknown' };
  return { ok: true, row };
}

/** What an authorization code flow keeps secret until its callback, sealed in the row (kernel/encryption.ts). */
export interface CodeFlowSecrets {
  /** PKCE code_verifier (RFC 7636). */
  verifier: string;
  /** OpenID Connect Core 3.1.2.1 nonce, also sent upstream. */
  nonce: string;
}

/** A code flow's table: its row holds the sealed JSON {verifier, nonce} in `secrets`. */
export type CodeFlowRow = BrowserFlowRow & { secrets: string };

export interface StartedCodeFlow {
  /** Sent upstream as `state`. */
  state: string;
  /** PKCE code_challenge (S256, RFC 7636 section 4.2) of the verifier kept server-side. */
  codeChallenge: string;
  nonce: string;
  /** Set on the answer: binds the flow to this browser. */
  bindingCookie: CookieSpec;
}

export type TakenCodeFlow<Row> = { ok: true; row: Row; secrets: CodeFlowSecrets } | { ok: false; reason: 'unknown' | 'wrong_browser' };

/** startBrowserFlow for an authorization code flow (OAuth 2.0, OpenID Connect): fresh PKCE verifier and nonce, sealed. */
export async function startCodeFlow<Row extends CodeFlowRow>(
  deps: Pick<Deps, 'config' | 'storage' | 'sealer' | 'clock'>,
  kind: BrowserFlowKind<Row>,
  presentedBinding: string | undefined,
  fields: Omit<BrowserFlowFields<Row>, 'secrets'>,
): Promise<StartedCodeFlow> {
  const verifier = randomToken(32);
  const nonce = randomToken(24);
  const secrets: CodeFlowSecrets = { verifier, nonce };
  const sealed = deps.sealer.seal(JSON.stringify(secrets));
  const started = await startBrowserFlow(deps, kind, presentedBinding, { ...fields, secrets: sealed } as BrowserFlowFields<Row>);
  return { state: started.handle, codeChallenge: createHash('sha256').update(verifier).digest('base64url'), nonce, bindingCookie: started.bindingCookie };
}

/** takeBrowserFlow for an authorization code flow, with its secrets opened. */
export async function takeCodeFlow<Row extends CodeFlowRow>(
  deps: Pick<Deps, 'storage' | 'sealer' | 'clock'>,
  kind: BrowserFlowKind<Row>,
  state: string | undefined,
  presentedBinding: string | undefined,
  belongs?: (row: Row) => boolean,
): Promise<TakenCodeFlow<Row>> {
  const taken = await takeBrowserFlow(deps, kind, state, presentedBinding, belongs);
  if (!taken.ok) return taken;
  const secrets = JSON.parse(deps.sealer.open(taken.row.secrets)) as CodeFlowSecrets;
  return { ok: true, row: taken.row, secrets: { verifier: secrets.verifier, nonce: secrets.nonce } };
}
