/**
 * POST /v1/validate_jwt_token, the call every resource server makes on every request it serves, without
 * the generic pipeline's per-call work where that work cannot change the answer:
 * - the input: a body that is exactly `{token_type, token}`, with a token type of this server and a token
 *   in the compact JWS alphabet (RFC 7515 section 7.1: base64url parts and dots) within the token length
 *   bound, is what parseInput would answer for it (no control character, no surrogate, one line, nothing
 *   to clean), so the handler gets it as it is. Anything else (roles, required_relations, extra or null
 *   fields, other types, other characters) goes through the generic route, unchanged;
 * - the output: the JSON text of `{is_valid: true, claims}` is kept per claims object while the token state
 *   cache answers the same frozen claims (modules/tokens/validate-token.ts withCurrentRoles: the same
 *   verified claims and the same user snapshot), instead of shaping and serialising it again;
 * - the handler: when the token state cache holds the verified claims, the token's record and its user (and
 *   the client cache its registered client), the answer is computed synchronously from them
 *   (modules/tokens/validate-token.ts checkIssuedTokenInMemory, the same checks in the same order), and
 *   the reply is sent without awaiting a promise or building the operation's context; otherwise the
 *   operation's handler runs as on the generic route (the public operation has no caller to authenticate
 *   either way).
 * Everything else is the generic path's: the route's hooks (per-IP limit, security headers, CORS, CSRF,
 * client id), the body parser and its limits, authentication, the operation's own handler (signature,
 * expiry and revocation are checked on every call), the error envelope, metrics and the access line.
 * test/http/validate-route.test.ts sends the same inputs to this route and to the generic one.
 */
import type { OpContext } from '../../kernel/context.ts';
import type { Deps } from '../../kernel/deps.ts';
import type { AnyOperation } from '../../ops/define.ts';
import { refusalOf, runHandler } from '../../ops/invoke.ts';
import { shapeOutput } from '../../ops/validate.ts';
import { withInputLimits } from '../../ops/input-limits.ts';
import { TOKEN_TYPES, type TokenType } from '../../modules/tokens/index.ts';
import { validatePlainTokenInMemory } from '../../modules/accounts/index.ts';
import { buildHttpContext } from './request-context.ts';
import { sendRefused, sendResult, type RestHandler } from './rest-answers.ts';

/** The Content-Type sendResult (rest-answers.ts) gives a body sent as JSON text. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The compact serialisation's alphabet: base64url (RFC 4648 section 5) and the dots between the parts. */
const COMPACT_JWS = /^[A-Za-z0-9_.-]+$/;

interface PlainValidation {
  token_type: string;
  token: string;
}

/** The input when it is exactly what parseInput would pass through unchanged; undefined otherwise. */
function plainValidation(body: unknown, maxTokenLength: number): PlainValidation | undefined {
  if (typeof body !== 'object' || body === null || Object.getPrototypeOf(body) !== Object.prototype) return undefined;
  const { token_type: tokenType, token } = body as Record<string, unknown>;
  if (typeof tokenType !== 'string' || !(TOKEN_TYPES as readonly string[]).includes(tokenType)) return undefined;
  if (typeof token !== 'string' || token.length > maxTokenLength || !COMPACT_JWS.test(token)) return undefined;
  if (Object.keys(body).length !== 2) return undefined;
  return { token_type: tokenType, token };
}

function maxLengthOf(op: AnyOperation, field: string): number {
  const declared = (withInputLimits(op.input).properties as Record<string, { maxLength?: number }>)[field]?.maxLength;
  if (declared === undefined) throw new Error(`${op.name}.${field} has no length bound`);
  return declared;
}

/** The body text of each answered claims object (frozen, shared while the cache answers the same). */
const bodies = new WeakMap<object, string>();

function bodyOf(op: AnyOperation, result: Record<string, unknown>): string {
  const claims = result.claims;
  const kept = result.is_valid === true && typeof claims === 'object' && claims !== null && Object.isFrozen(claims) && Object.keys(result).length === 2;
  if (kept) {
    const known = bodies.get(claims);
    if (known !== undefined) return known;
  }
  // What Fastify's default serialiser makes of the shaped object on the generic route.
  const body = JSON.stringify(shapeOutput(op.output, result));
  if (kept) bodies.set(claims, body);
  return body;
}

export function leanValidateHandler(deps: Deps, op: AnyOperation, generic: RestHandler): RestHandler {
  const maxTokenLength = maxLengthOf(op, 'token');
  return async (request, reply) => {
    const input = plainValidation(request.body, maxTokenLength);
    if (!input) return generic(request, reply);
    // The operation's context is made only when something needs it (the handler, or a refusal): an answer
    // from memory has no effects to apply and nothing to log.
    let ctx: OpContext | undefined;
    try {
      // Synchronous when memory answers: no promise is awaited before the reply is sent.
      const inMemory = validatePlainTokenInMemory(deps, input.token_type as TokenType, input.token);
      if (inMemory) return reply.type(JSON_CONTENT_TYPE).status(200).send(bodyOf(op, inMemory));
      ctx = buildHttpContext(deps, request, 'rest');
      const result = await runHandler(op, ctx, input as unknown as Record<string, unknown>);
      return sendResult(reply, ctx, bodyOf(op, result));
    } catch (err) {
      ctx ??= buildHttpContext(deps, request, 'rest');
      return sendRefused(reply, ctx, refusalOf(op, ctx, err));
    }
  };
}
