/**
 * Which clients may exchange tokens (RFC 8693 section 2.1) and for which audiences: a registered, active client
 * an administrator allowed (clients' client-grant-settings.entity.ts, off by default). The instance client stands for
 * the first-party browser application, which acts for nobody else. Client authentication is the token
 * endpoint's (client-auth.ts); a public client is refused, since delegation must name an accountable party
 * (RFC 8693 section 2.1: the server SHOULD authenticate the client).
 */
import type { EntityManager } from '@mikro-orm/core';
import { OAuthError } from '../../../kernel/oauth-error.ts';
import { exchangeAudiencesOf } from '../../clients/index.ts';
import type { AuthenticatedClient } from '../client-auth.ts';

export type ExchangeClient = NonNullable<AuthenticatedClient['registered']>;

export async function requireExchangeClient(em: EntityManager, client: AuthenticatedClient): Promise<{ registered: ExchangeClient; audiences: string[] }> {
  const registered = client.registered;
  const audiences = registered && registered.isActive && client.method !== 'none' ? await exchangeAudiencesOf(em, registered.id) : undefined;
  if (!registered || !audiences) {
    throw new OAuthError(400, 'unauthorized_client', 'token exchange is not enabled for this client');
  }
  return { registered, audiences };
}
