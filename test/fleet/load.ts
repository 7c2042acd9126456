/**
 * Bounded mixed load through the load balancer for the fleet test: a few workers, each with its own accounts,
 * loop over sign-ups, logins, refreshes (/oauth/token), validate_jwt_token, profile reads and writes and FGA
 * checks, pausing between requests. Every request is kept as an outcome (start, end, status, what was wrong),
 * and every acknowledged write (an account signed up, a given_name stored) is remembered for the check after.
 * A worker whose request failed signs its account in again before using its tokens.
 */
import { randomBytes } from 'node:crypto';

export const LOAD_PASSWORD = 'Fleet-Load-Pa55!';
/** A tuple of the fleet's FGA model that makes every user a viewer of document:public. */
export const FGA_MODEL = `model
  schema 1.1
type user
type document
  relations
    define viewer: [user, user:*]
`;

type Op = 'signup' | 'login' | 'refresh' | 'validate' | 'profile' | 'update_profile' | 'fga_check';

const WEIGHTS: [Op, number][] = [
  ['signup', 10],
  ['login', 10],
  ['refresh', 15],
  ['validate', 20],
  ['profile', 15],
  ['update_profile', 15],
  ['fga_check', 15],
];

export interface Outcome {
  op: Op;
  worker: number;
  startedAt: number;
  endedAt: number;
  /** 0 when no HTTP answer came. */
  status: number;
  /** Why it counts as failed; undefined when it succeeded. */
  failure?: string;
}

interface Account {
  email: string;
  id: string;
  accessToken?: string;
  refreshToken?: string;
  /** The given_name of the last acknowledged update_profile. */
  givenName?: string;
}

export interface Acknowledged {
  /** Signed-up accounts by email: their id. */
  signups: Map<string, string>;
  /** The last acknowledged given_name by user id. */
  givenNames: Map<string, string>;
}

export interface Load {
  outcomes: Outcome[];
  acknowledged: Acknowledged;
  failures(): Outcome[];
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function startLoad(baseUrl: string, options: { workers: number; pauseMs: number }): Load {
  const origin = new URL(baseUrl).origin;
  const outcomes: Outcome[] = [];
  const acknowledged: Acknowledged = { signups: new Map(), givenNames: new Map() };
  const runId = randomBytes(3).toString('hex');
  let stopped = false;
  let updates = 0;

  async function post(path: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
    const headers: Record<string, string> = { origin, 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    return answer(await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }));
  }

  /** The status and the JSON body, or the text of a body that is not JSON (a proxy's error page). */
  async function answer(res: Response): Promise<{ status: number; body: any }> {
    const text = await res.text();
    try {
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    } catch {
      return { status: res.status, body: text.slice(0, 200) };
    }
  }

  function pick(): Op {
    let roll = Math.random() * WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
    for (const [op, weight] of WEIGHTS) {
      roll -= weight;
      if (roll < 0) return op;
    }
    return 'validate';
  }

  /** Runs one request; answers what was wrong, or undefined. */
  async function perform(op: Op, worker: number, accounts: Account[], account: Account | undefined, record: (status: number) => void): Promise<string | undefined> {
    if (op === 'signup') {
      const email = `w${worker}-${accounts.length}-${runId}@fleet.example.com`;
      const res = await post('/v1/signup', { email, password: LOAD_PASSWORD, confirm_password: LOAD_PASSWORD });
      record(res.status);
      if (res.status !== 200) return JSON.stringify(res.body);
      acknowledged.signups.set(email, res.body.user.id);
      accounts.push({ email, id: res.body.user.id, accessToken: res.body.access_token });
      return undefined;
    }
    if (!account) return undefined;
    if (op === 'login' || (op === 'refresh' && !account.refreshToken)) {
      const res = await post('/v1/login', { email: account.email, password: LOAD_PASSWORD, scope: ['openid', 'email', 'profile', 'offline_access'] });
      record(res.status);
      if (res.status !== 200) return JSON.stringify(res.body);
      account.accessToken = res.body.access_token;
      account.refreshToken = res.body.refresh_token;
      return undefined;
    }
    if (op === 'refresh') {
      const res = await answer(
        await fetch(`${baseUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: account.refreshToken! }).toString(),
        }),
      );
      const body = res.body as Record<string, string>;
      record(res.status);
      if (res.status !== 200) return JSON.stringify(body);
      account.accessToken = body.access_token;
      account.refreshToken = body.refresh_token;
      return undefined;
    }
    const token = account.accessToken!;
    if (op === 'validate') {
      const res = await post('/v1/validate_jwt_token', { token_type: 'access_token', token });
      record(res.status);
      if (res.status !== 200 || res.body.is_valid !== true) return JSON.stringify(res.body);
      return undefined;
    }
    if (op === 'profile') {
      const res = await answer(await fetch(`${baseUrl}/v1/profile`, { headers: { authorization: `Bearer ${token}` } }));
      const body = res.body as Record<string, unknown>;
      record(res.status);
      if (res.status !== 200) return JSON.stringify(body);
      if (body.id !== account.id) return `profile of ${String(body.id)}, expected ${account.id}`;
      if (account.givenName !== undefined && body.given_name !== account.givenName) return `given_name ${String(body.given_name)}, last written ${account.givenName}`;
      return undefined;
    }
    if (op === 'update_profile') {
      const givenName = `g${(updates += 1)}`;
      const res = await post('/v1/update_profile', { given_name: givenName }, token);
      record(res.status);
      if (res.status !== 200) return JSON.stringify(res.body);
      account.givenName = givenName;
      acknowledged.givenNames.set(account.id, givenName);
      return undefined;
    }
    const res = await post('/v1/check_permissions', { checks: [{ relation: 'viewer', object: 'document:public' }] }, token);
    record(res.status);
    if (res.status !== 200 || res.body.results?.[0]?.allowed !== true) return JSON.stringify(res.body);
    return undefined;
  }

  async function work(worker: number): Promise<void> {
    const accounts: Account[] = [];
    while (!stopped) {
      const account = accounts.length > 0 ? accounts[Math.floor(Math.random() * accounts.length)] : undefined;
      // An account whose tokens a failure may have spent signs in again first.
      const op: Op = !account ? 'signup' : !account.accessToken ? 'login' : pick();
      const outcome: Outcome = { op, worker, startedAt: Date.now(), endedAt: 0, status: 0 };
      try {
        outcome.failure = await perform(op, worker, accounts, account, (status) => (outcome.status = status));
      } catch (err) {
        outcome.failure = `${(err as Error).message}${(err as Error & { cause?: Error }).cause ? `: ${(err as Error & { cause: Error }).cause.message}` : ''}`;
      }
      outcome.endedAt = Date.now();
      outcomes.push(outcome);
      if (outcome.failure && account) {
        account.accessToken = undefined;
        account.refreshToken = undefined;
      }
      await sleep(options.pauseMs);
    }
  }

  const running = Array.from({ length: options.workers }, (_, worker) => work(worker));
  return {
    outcomes,
    acknowledged,
    failures: () => outcomes.filter((outcome) => outcome.failure !== undefined),
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/**
 * Every acknowledged write is in the database, read back through the admin API of any instance: each signed-up
 * account exists with its id, and each account's given_name is the last one acknowledged. Answers the problems.
 */
export async function missingWrites(baseUrl: string, adminSecret: string, acknowledged: Acknowledged): Promise<string[]> {
  const origin = new URL(baseUrl).origin;
  const users = new Map<string, { id: string; given_name?: string }>();
  for (let page = 1; ; page++) {
    const res = await fetch(`${baseUrl}/v1/admin/users`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', 'x-service-admin-secret': adminSecret },
      body: JSON.stringify({ pagination: { limit: 100, page } }),
    });
    const body = (await res.json()) as { users: { id: string; email: string; given_name?: string }[] };
    if (res.status !== 200) throw new Error(`admin users: ${res.status} ${JSON.stringify(body)}`);
    for (const user of body.users) users.set(user.email, user);
    if (body.users.length < 100) break;
  }
  const problems: string[] = [];
  const byId = new Map([...users.values()].map((user) => [user.id, user]));
  for (const [email, id] of acknowledged.signups) {
    if (users.get(email)?.id !== id) problems.push(`signup ${email} (${id}) is missing`);
  }
  for (const [id, givenName] of acknowledged.givenNames) {
    if (byId.get(id)?.given_name !== givenName) problems.push(`user ${id} has given_name ${byId.get(id)?.given_name}, last acknowledged ${givenName}`);
  }
  return problems;
}
