/**
 * Admin operations of the token exchange grant's per-client enablement (token-exchange-client.entity.ts):
 * `_client_token_exchange` reads whether a client may exchange tokens (RFC 8693) and for which audiences,
 * `_set_client_token_exchange` switches it and sets those audiences. Served over GraphQL, REST
 * (/v1/admin/<name>) and gRPC like the client registry's own operations.
 */
import { defineOperation } from '../../../ops/define.ts';
import { s } from '../../../ops/schema.ts';
import { getClient } from '../../clients/index.ts';
import { TokenExchangeClient } from './token-exchange-client.entity.ts';
import { exchangeAudiencesOf } from './token-exchange-client.ts';

/** At most this many audiences per client: a short list an administrator reads. */
const MAX_AUDIENCES = 20;

const audienceList = s.list(s.string({ minLength: 1, maxLength: 2048 }), { maxItems: MAX_AUDIENCES });

const ClientTokenExchangeQuery = s.object('ClientTokenExchangeQuery', {
  client_id: s.string({ minLength: 1, maxLength: 64 }),
});

const SetClientTokenExchangeRequest = s.object('SetClientTokenExchangeRequest', {
  client_id: s.string({ minLength: 1, maxLength: 64 }),
  enabled: s.boolean(),
  audiences: s.optional(audienceList),
});

const ClientTokenExchange = s.object('ClientTokenExchange', {
  client_id: s.string(),
  enabled: s.boolean({ description: 'whether the client may use the token exchange grant (RFC 8693)' }),
  audiences: s.list(s.string(), { maxItems: MAX_AUDIENCES }),
});

export const clientTokenExchangeOp = defineOperation({
  name: 'client_token_exchange',
  admin: true,
  kind: 'query',
  description: 'Whether a registered client may use the token exchange grant (RFC 8693), and the audiences it may ask for',
  input: ClientTokenExchangeQuery,
  output: ClientTokenExchange,
  auth: 'admin',
  handler: async (input, ctx) => {
    const client = await getClient(ctx.em, { client_id: input.client_id });
    const audiences = await exchangeAudiencesOf(ctx.em, client.id);
    return { client_id: client.clientId, enabled: audiences !== undefined, audiences: audiences ?? [] };
  },
});

export const setClientTokenExchangeOp = defineOperation({
  name: 'set_client_token_exchange',
  admin: true,
  kind: 'mutation',
  description: 'Enables or disables the token exchange grant (RFC 8693) for a registered client, with the audiences it may ask for; off by default',
  input: SetClientTokenExchangeRequest,
  output: ClientTokenExchange,
  auth: 'admin',
  handler: async (input, ctx) => {
    const client = await getClient(ctx.em, { client_id: input.client_id });
    await ctx.em.nativeDelete(TokenExchangeClient, { id: client.id });
    if (!input.enabled) return { client_id: client.clientId, enabled: false, audiences: [] };
    const audiences = [...new Set((input.audiences ?? []).map((audience) => audience.trim()).filter(Boolean))];
    ctx.em.create(TokenExchangeClient, { id: client.id, audiences, enabledAt: ctx.deps.clock.now() });
    await ctx.em.flush();
    return { client_id: client.clientId, enabled: true, audiences };
  },
});

export const tokenExchangeAdminOperations = [clientTokenExchangeOp, setClientTokenExchangeOp];
