/**
 * What an assertion says about the user to one service provider
 * (docs/api-overview.md#resources-and-fields, "SAML service provider": NameID format and attribute mapping). NameID by the SP's format (SAML 2.0 Core 8.3):
 * emailAddress is the user's address; persistent is an opaque identifier for this user at this SP of this
 * organization (Core 8.3.7: pairwise, so two SPs cannot join their records), an HMAC under the server's
 * secret; unspecified is the user id. Attributes are the mapped fields that have a value. An address or a
 * phone number is asserted only once proven (users/address-proof.ts), not merely marked verified: SPs take an
 * asserted email as proven and link accounts by it, so an unproven one (an email changed while verification
 * is off) would let whoever typed it in act as its owner there.
 */
import type { Config } from '../../config/flags.ts';
import { hmacSha256Hex } from '../../kernel/crypto.ts';
import type { UserRow } from '../users/index.ts';
import { emailProven, phoneProven } from '../users/index.ts';
import type { SamlServiceProviderRow } from './saml-idp.entities.ts';
import { NAMEID_FORMATS } from './sp-fields.ts';

export interface AssertionSubject {
  nameId: string;
  nameIdFormat: string;
  attributes: Array<{ name: string; values: string[] }>;
}

export class SubjectUnavailableError extends Error {
  override readonly name = 'SubjectUnavailableError';
}

function fieldValues(field: string, user: UserRow, orgRoles: string[]): string[] {
  const one = (value: string | null | undefined) => (value ? [value] : []);
  switch (field) {
    case 'id': return [user.id];
    case 'email': return one(emailProven(user) ? user.email : null);
    case 'given_name': return one(user.givenName);
    case 'family_name': return one(user.familyName);
    case 'name': return one([user.givenName, user.familyName].filter(Boolean).join(' ') || null);
    case 'nickname': return one(user.nickname);
    case 'preferred_username': return one(user.preferredUsername);
    case 'phone_number': return one(phoneProven(user) ? user.phoneNumber : null);
    case 'roles': return [...user.roles];
    case 'org_roles': return [...orgRoles];
    default: return [];
  }
}

export function assertionSubject(config: Pick<Config, 'encryptionKey' | 'jwtSecret'>, sp: SamlServiceProviderRow, user: UserRow, orgRoles: string[]): AssertionSubject {
  let nameId: string;
  if (sp.nameIdFormat === NAMEID_FORMATS.emailAddress) {
    if (!user.email || !emailProven(user)) throw new SubjectUnavailableError('the account has no verified email address');
    nameId = user.email;
  } else if (sp.nameIdFormat === NAMEID_FORMATS.persistent) {
    nameId = hmacSha256Hex((config.encryptionKey || config.jwtSecret)!, `saml-persistent:${sp.orgId}:${sp.entityId}:${user.id}`);
  } else {
    nameId = user.id;
  }
  const attributes = Object.entries(sp.attributeMapping)
    .map(([field, name]) => ({ name, values: fieldValues(field, user, orgRoles) }))
    .filter((attribute) => attribute.values.length > 0);
  return { nameId, nameIdFormat: sp.nameIdFormat, attributes };
}
