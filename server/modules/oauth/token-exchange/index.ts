/**
 * OAuth 2.0 Token Exchange (RFC 8693; docs/protocols.md): the per-client enablement an administrator switches,
 * with the audiences a client may ask for. The token endpoint's grant is ../grants/token-exchange-grant.ts,
 * listed with the other grants; the exchange itself is exchange.ts.
 */
import { defineModule } from '../../manifest.ts';
import { TokenExchangeClient } from './token-exchange-client.entity.ts';
import { tokenExchangeAdminOperations } from './token-exchange-admin.ops.ts';

export const tokenExchangeModule = defineModule({
  name: 'token-exchange',
  entities: [TokenExchangeClient],
  operations: [...tokenExchangeAdminOperations],
});
