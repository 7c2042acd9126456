/**
 * How a REST call answers (docs/operations.md): the operation's effects as real headers, then
 * 200 with the bare result object, or the `{code, message}` envelope with the status of
 * docs/errors.md. Shared by the generic route of every operation (rest-routes.ts) and the lean routes
 * (lean-routes.ts), so that both answer alike.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OpContext } from '../../kernel/context.ts';
import type { AppError } from '../../kernel/errors.ts';
import { applyEffects } from './request-context.ts';
import { sendAppError } from './errors.ts';

export type RestHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** What Fastify sets for an object body; a body sent as its JSON text carries the same header. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** 200 with the result: an object (Fastify serialises it with JSON.stringify) or that object's JSON text. */
export function sendResult(reply: FastifyReply, ctx: OpContext, body: Record<string, unknown> | string): FastifyReply {
  applyEffects(reply, ctx.effects);
  if (typeof body === 'string') reply.type(JSON_CONTENT_TYPE);
  return reply.status(200).send(body);
}

/** A refused call: the effects gathered until the refusal, then the error envelope. */
export function sendRefused(reply: FastifyReply, ctx: OpContext, error: AppError): FastifyReply {
  applyEffects(reply, ctx.effects);
  return sendAppError(reply, error);
}
