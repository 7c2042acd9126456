/** A minimal GraphQL-over-HTTP client for tests: real fetch, the Origin header the CSRF rule asks for. */
import type { TestServer } from '../support/app.ts';

export interface GraphqlReply {
  status: number;
  headers: Headers;
  body: {
    data?: Record<string, unknown> | null;
    errors?: { message: string; path?: string[]; extensions?: { code?: string } }[];
  };
}

export async function postGraphql(
  server: TestServer,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<GraphqlReply> {
  const res = await fetch(`${server.baseUrl}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.baseUrl, ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** The one error of a failed reply, with its code. */
export function onlyError(reply: GraphqlReply): { message: string; code: string | undefined } {
  const errors = reply.body.errors ?? [];
  if (errors.length !== 1) throw new Error(`expected exactly one error, got ${JSON.stringify(reply.body)}`);
  return { message: errors[0]!.message, code: errors[0]!.extensions?.code };
}
