/**
 * A small registry for gRPC tests that exercises what the real operations do not yet: Map (Struct) fields,
 * optional scalars, int64, lists, nested messages, a cookie set before a failure, and an unexpected crash.
 */
import { defineOperation, type AnyOperation } from '../../server/ops/define.ts';
import { createRegistry } from '../../server/ops/registry.ts';
import { NoInput, MessageResponse, s } from '../../server/ops/schema.ts';
import { AppError } from '../../server/kernel/errors.ts';

const Point = s.object('Point', { x: s.int(), label: s.optional(s.string()) }, { description: 'A labelled point' });

const EchoRequest = s.object('EchoRequest', {
  text: s.string({ description: 'Any text' }),
  note: s.optional(s.string()),
  flag: s.boolean(),
  maybe: s.optional(s.boolean()),
  count: s.int(),
  big: s.int64(),
  tags: s.list(s.string()),
  extra_tags: s.optional(s.list(s.string())),
  attrs: s.optional(s.map()),
  point: s.optional(Point),
  points: s.list(Point),
});

const EchoResponse = s.object('EchoResponse', {
  echo: EchoRequest,
  ip: s.string(),
  bearer: s.optional(s.string()),
  present: s.list(s.string()),
});

export const echoOp = defineOperation({
  name: 'echo',
  admin: false,
  kind: 'query',
  description: 'Returns its input\nand what the transport saw',
  input: EchoRequest,
  output: EchoResponse,
  auth: 'public',
  handler: async (input, ctx) => ({
    echo: input,
    ip: ctx.req.ip,
    bearer: ctx.credentials.bearer,
    present: Object.keys(input).sort(),
  }),
});

export const cookieThenFailOp = defineOperation({
  name: 'cookie_then_fail',
  admin: false,
  kind: 'query',
  description: 'Sets a cookie, then refuses',
  input: NoInput,
  output: MessageResponse,
  auth: 'public',
  handler: async (_input, ctx) => {
    ctx.effects.setCookie({ name: 'probe', value: 'a b', maxAge: 60, httpOnly: true, secure: false, sameSite: 'Lax', path: '/' });
    throw AppError.precondition('refused after setting a cookie');
  },
});

export const crashOp = defineOperation({
  name: 'crash',
  admin: false,
  kind: 'query',
  description: 'Throws a plain Error carrying a secret',
  input: NoInput,
  output: MessageResponse,
  auth: 'public',
  handler: async () => {
    throw new Error('db password is hunter2');
  },
});

export const graphqlOnlyOp = defineOperation({
  name: 'graphql_only',
  admin: false,
  kind: 'query',
  description: 'Not on gRPC',
  input: NoInput,
  output: MessageResponse,
  auth: 'public',
  grpc: false,
  handler: async () => ({ message: 'hi' }),
});

export const fixtureRegistry = createRegistry([echoOp, cookieThenFailOp, crashOp, graphqlOnlyOp] as unknown as AnyOperation[]);
