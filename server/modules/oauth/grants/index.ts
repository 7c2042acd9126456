/**
 * The grants POST /oauth/token serves, one file each. Discovery's grant_types_supported is derived from this
 * list (../discovery-metadata.ts), so adding a grant here is what advertises it.
 */
import type { Grant } from './grant.ts';
import { refreshGrant } from './refresh-grant.ts';
import { jwtBearerGrant } from './jwt-bearer-grant.ts';
import { authorizationCodeGrant } from './authorization-code-grant.ts';
import { clientCredentialsGrant } from './client-credentials-grant.ts';
import { deviceCodeGrant } from './device-code-grant.ts';
import { tokenExchangeGrant } from './token-exchange-grant.ts';

export type { Grant, GrantRequest } from './grant.ts';

export const GRANTS: readonly Grant[] = [
  refreshGrant,
  jwtBearerGrant,
  authorizationCodeGrant,
  clientCredentialsGrant,
  deviceCodeGrant,
  tokenExchangeGrant,
];

export function grantNamed(grantType: string): Grant | undefined {
  return GRANTS.find((grant) => grant.grantType === grantType);
}
