/** The IdP settings of a stored connection: its client secret opened for the one request that needs it. */
import type { Deps } from '../../kernel/deps.ts';
import type { IdpSettings } from './idp-client.ts';
import type { OrgOidcConnectionRow } from './org-sso.entities.ts';

export function idpSettingsOf(deps: Pick<Deps, 'config' | 'sealer'>, connection: OrgOidcConnectionRow): IdpSettings {
  return {
    issuer: connection.issuer,
    clientId: connection.clientId,
    clientSecret: connection.clientSecret ? deps.sealer.open(connection.clientSecret) : undefined,
    scopes: connection.scopes,
    allowPrivate: deps.config.orgSsoAllowPrivateAddresses,
  };
}
