/**
 * The console journeys' server: the same built executable as fixtures.ts, with what the console screens need
 * on top: several roles (a role can be changed) and the playground link (--enable-playground), started by
 * fixtures.ts's portcullisFixture with those flags added. Plus the API calls a journey makes as the user
 * under test.
 */
import { test as base, expect } from '@playwright/test';
import { portcullisFixture, type Portcullis } from './fixtures.ts';

export const CONSOLE_ROLES = ['user', 'editor', 'auditor'];

export interface ConsoleServer {
  url: string;
  adminSecret: string;
  output(): string;
  /** The SMTP sink of a server the shared fixture started (fixtures.ts Portcullis.mailTo), for a mailed code. */
  mailTo?: Portcullis['mailTo'];
}

export const test = base.extend<object, { consoleServer: ConsoleServer }>({
  consoleServer: [
    portcullisFixture(['--roles', CONSOLE_ROLES.join(','), '--default-roles', 'user', '--enable-playground']),
    { scope: 'worker', timeout: 60_000 },
  ],
});

export { expect };

/** One GraphQL call from outside the browser (Origin set: the server's CSRF rule, docs/api-overview.md#authentication). */
export async function graphqlCall(
  server: ConsoleServer,
  query: string,
  variables: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ data?: any; errors?: { message: string; extensions?: { code?: string } }[] }> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.url, ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return res.json();
}

export const USER_PASSWORD = 'Console-Journey-Pass-7';

/** Signs a new person up over GraphQL, as the login UI would; answers their id and access token. */
export async function signUpUser(server: ConsoleServer, email: string): Promise<{ id: string; accessToken: string }> {
  const answer = await graphqlCall(
    server,
    'mutation($params: SignUpRequest!) { signup(params: $params) { access_token user { id } } }',
    { params: { email, password: USER_PASSWORD, confirm_password: USER_PASSWORD } },
  );
  if (answer.errors?.length || !answer.data?.signup?.access_token) throw new Error(`signup failed: ${JSON.stringify(answer)}`);
  return { id: answer.data.signup.user.id, accessToken: answer.data.signup.access_token };
}

/** Logs the person in again (a second session); answers the access token. */
export async function logIn(server: ConsoleServer, email: string): Promise<{ accessToken: string; error?: string }> {
  const answer = await graphqlCall(
    server,
    'mutation($params: LoginRequest!) { login(params: $params) { access_token } }',
    { params: { email, password: USER_PASSWORD } },
  );
  return { accessToken: answer.data?.login?.access_token ?? '', error: answer.errors?.[0]?.message };
}

/** The user's own `profile` call with their bearer token: ok, or the server's error code. */
export async function profileWith(server: ConsoleServer, accessToken: string): Promise<'ok' | string> {
  const answer = await graphqlCall(server, 'query { profile { id roles } }', {}, { authorization: `Bearer ${accessToken}` });
  return answer.errors?.length ? (answer.errors[0]!.extensions?.code ?? 'error') : 'ok';
}

/** Admin calls over the header (setup only; the journeys act through the console). */
export async function adminCall(server: ConsoleServer, query: string, variables: Record<string, unknown> = {}) {
  const answer = await graphqlCall(server, query, variables, { 'x-service-admin-secret': server.adminSecret });
  if (answer.errors?.length) throw new Error(JSON.stringify(answer.errors));
  return answer.data;
}
