/**
 * OAuth 2.0 Token Exchange (RFC 8693; docs/protocols.md): the admin operations of the per-client enablement,
 * with the audiences a client may ask for (its row is the client registry's, clients/client-grant-settings.entity.ts). The token endpoint's grant is ../grants/token-exchange-grant.ts,
 * listed with the other grants; the exchange itself is exchange.ts.
 */
import { defineModule } from '../../manifest.ts';
import { tokenExchangeAdminOperations } from './token-exchange-admin.ops.ts';

export const tokenExchangeModule = defineModule({
  name: 'token-exchange',
  operations: [...tokenExchangeAdminOperations],
});
