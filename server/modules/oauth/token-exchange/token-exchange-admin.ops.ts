/**
 * Admin operations of the token exchange grant's per-client enablement (clients' client-grant-settings.entity.ts):
 * `_client_token_exchange` reads whether a client may exchange tokens (RFC 8693) and for which audiences,
 * `_set_client_token_exchange` switches it and replaces those audiences; `create_client` and `update_client`
 * take the same as `token_exchange_enabled` and `token_exchange_audiences`.
 */
import { s } from '../../../ops/schema.ts';
import { MAX_EXCHANGE_AUDIENCES, clientSettingOperations, exchangeAudiencesOf, setTokenExchange } from '../../clients/index.ts';

export const tokenExchangeAdminOperations = clientSettingOperations({
  name: 'token_exchange',
  readDescription: 'Whether a registered client may use the token exchange grant (RFC 8693), and the audiences it may ask for',
  setDescription: 'Enables or disables the token exchange grant (RFC 8693) for a registered client, with the audiences it may ask for; off by default',
  setFields: {
    enabled: s.boolean(),
    audiences: s.optional(s.list(s.string({ minLength: 1, maxLength: 2048 }), { maxItems: MAX_EXCHANGE_AUDIENCES })),
  },
  answerFields: {
    enabled: s.boolean({ description: 'whether the client may use the token exchange grant (RFC 8693)' }),
    audiences: s.list(s.string(), { maxItems: MAX_EXCHANGE_AUDIENCES }),
  },
  read: async (em, client) => {
    const audiences = await exchangeAudiencesOf(em, client.id);
    return { enabled: audiences !== undefined, audiences: audiences ?? [] };
  },
  write: async (ctx, client, input) => ({
    enabled: input.enabled,
    audiences: await setTokenExchange(ctx.em, ctx.deps.clock.now(), client.id, input.enabled, input.audiences ?? []),
  }),
});
