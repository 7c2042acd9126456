/**
 * grant_type=urn:ietf:params:oauth:grant-type:token-exchange (RFC 8693 section 2.1): a client an administrator
 * allowed (../token-exchange/token-exchange-client.ts) exchanges a user's access token, with its own token as
 * the actor, for an access token that says who acts for the user (../token-exchange/exchange.ts).
 */
import { requireExchangeClient } from '../token-exchange/token-exchange-client.ts';
import { exchangeToken } from '../token-exchange/exchange.ts';
import type { Grant } from './grant.ts';

export const TOKEN_EXCHANGE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:token-exchange';

export const tokenExchangeGrant: Grant = {
  grantType: TOKEN_EXCHANGE_GRANT_TYPE,
  async handle({ ctx, body, client, dpopJkt }) {
    const { registered, audiences } = await requireExchangeClient(ctx.em, client);
    return exchangeToken(ctx, body, registered, audiences, dpopJkt);
  },
};
