/**
 * The pipeline of an endpoint (endpoint.ts), apart from the definitions modules import so that a module
 * defining endpoints does not load the operation pipeline.
 */
import type { OpContext } from '../kernel/context.ts';
import { clientKey } from '../modules/limits/index.ts';
import type { Endpoint, EndpointAnswer, EndpointRequest } from './endpoint.ts';
import { refusalOf, runUnitOfWork } from './invoke.ts';

/**
 * Runs one endpoint: its rate limit, then its handler in the operations' unit of work. A refusal comes out
 * as an AppError (an OAuthError as thrown), anything unexpected logged and named by the request id.
 */
export async function runEndpoint(endpoint: Endpoint, ctx: OpContext, request: EndpointRequest): Promise<EndpointAnswer> {
  try {
    if (endpoint.rateLimit) await ctx.deps.limits.consume(endpoint.rateLimit, clientKey(request.ip));
    return await runUnitOfWork(ctx, endpoint.transaction ?? false, (handlerCtx) => endpoint.handler(request, handlerCtx));
  } catch (err) {
    throw refusalOf(endpoint, ctx, err);
  }
}
