/**
 * The person a validated SAML assertion vouches for, in the terms of the sign-in rule (sign-in.ts):
 *
 * - subject: the NameID qualified by its format (SAML 2.0 Core 8.3: the same value means different things
 *   under different formats). A transient NameID (Core 8.3.8) changes every sign-in, so it gives no subject
 *   and no link is kept.
 * - email: the configured attribute; by default the NameID when its format is emailAddress (Core 8.3.2),
 *   else the first of the common attribute names (ADFS and Entra ID's claim URI, `email`, `mail`, and the
 *   eduPerson OID). Several different values in one attribute read as none: the assertion does not say
 *   which address is the person's.
 * - emailVerified: true. SAML has no such claim; the address is what the IdP asserts, and sign-in.ts counts
 *   it only in a domain the organization verified, so a SAML IdP is authoritative by domain and nothing else.
 * - given and family names: configured attribute, or the common names.
 */
import type { OrgSamlConnectionRow } from './saml-connection.entities.ts';
import type { SsoIdentity } from './sign-in.ts';
import type { ValidatedAssertion } from './saml-response.ts';
import { NAMEID_EMAIL } from './saml-sp.ts';
import { SamlResponseError } from './saml-response.ts';

const NAMEID_TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const MAX_NAMEID = 200;
const MAX_EMAIL = 320;
const MAX_NAME = 255;

export const DEFAULT_EMAIL_ATTRIBUTES = ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3'];
export const DEFAULT_GIVEN_NAME_ATTRIBUTES = ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'givenName', 'given_name', 'firstName', 'urn:oid:2.5.4.42'];
export const DEFAULT_FAMILY_NAME_ATTRIBUTES = ['http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'sn', 'surname', 'family_name', 'lastName', 'urn:oid:2.5.4.4'];

/** The one value of the first named attribute present; several distinct values read as none. */
function single(attributes: Record<string, string[]>, names: readonly string[], max: number): string | undefined {
  for (const name of names) {
    const values = [...new Set((attributes[name] ?? []).map((v) => v.trim()).filter(Boolean))];
    if (values.length === 0) continue;
    if (values.length > 1 || values[0]!.length > max) return undefined;
    return values[0];
  }
  return undefined;
}

function subjectOf(assertion: ValidatedAssertion): string | undefined {
  if (assertion.nameIdFormat === NAMEID_TRANSIENT) return undefined;
  if (assertion.nameId.length > MAX_NAMEID) throw new SamlResponseError('NameID too long');
  const format = assertion.nameIdFormat?.split(':').pop() || 'unspecified';
  return `${format.slice(0, 40)}:${assertion.nameId}`;
}

export function samlIdentity(connection: Pick<OrgSamlConnectionRow, 'emailAttribute' | 'givenNameAttribute' | 'familyNameAttribute'>, assertion: ValidatedAssertion): SsoIdentity {
  const { attributes } = assertion;
  let email: string | undefined;
  if (connection.emailAttribute) email = single(attributes, [connection.emailAttribute], MAX_EMAIL);
  else if (assertion.nameIdFormat === NAMEID_EMAIL && assertion.nameId.length <= MAX_EMAIL) email = assertion.nameId;
  else email = single(attributes, DEFAULT_EMAIL_ATTRIBUTES, MAX_EMAIL);
  return {
    subject: subjectOf(assertion),
    email,
    emailVerified: true,
    givenName: single(attributes, connection.givenNameAttribute ? [connection.givenNameAttribute] : DEFAULT_GIVEN_NAME_ATTRIBUTES, MAX_NAME),
    familyName: single(attributes, connection.familyNameAttribute ? [connection.familyNameAttribute] : DEFAULT_FAMILY_NAME_ATTRIBUTES, MAX_NAME),
  };
}
