/**
 * This server as a SAML 2.0 service provider for one organization: its metadata (SAML 2.0 Metadata 2.4.4
 * SPSSODescriptor) and its AuthnRequest sent with the HTTP-Redirect binding (Bindings 3.4.4.1: DEFLATE,
 * base64, URL-encoded as SAMLRequest, with RelayState). Both are a few fixed elements written here, so
 * neither loads the XML library (saml-response.ts does, for the responses). Every value placed in the XML
 * is escaped; the addresses come from --url and the organization's slug (sso-urls.ts).
 *
 * The SP signs nothing and decrypts nothing: AuthnRequestsSigned="false" (the request's integrity is not
 * what protects the sign-in; the response's signature, audience, recipient and InResponseTo are), and
 * WantAssertionsSigned="true" (saml-response.ts refuses an assertion that is not itself signed).
 */
import { deflateRawSync } from 'node:zlib';
import type { Config } from '../../config/flags.ts';
import { escapeXml } from '../../kernel/xml-text.ts';
import { samlAcsUrl, samlEntityId } from './sso-urls.ts';

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';
const METADATA = 'urn:oasis:names:tc:SAML:2.0:metadata';
const HTTP_POST = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';
export const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
export const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
export const NAMEID_UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';

export function spMetadataXml(config: Pick<Config, 'url'>, orgName: string): string {
  const entityId = escapeXml(samlEntityId(config, orgName));
  const acs = escapeXml(samlAcsUrl(config, orgName));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="${METADATA}" entityID="${entityId}">`,
    `<md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="${PROTOCOL}">`,
    `<md:NameIDFormat>${NAMEID_EMAIL}</md:NameIDFormat>`,
    `<md:NameIDFormat>${NAMEID_PERSISTENT}</md:NameIDFormat>`,
    `<md:AssertionConsumerService Binding="${HTTP_POST}" Location="${acs}" index="0" isDefault="true"/>`,
    '</md:SPSSODescriptor>',
    '</md:EntityDescriptor>',
    '',
  ].join('\n');
}

export interface AuthnRequestInput {
  orgName: string;
  idpSsoUrl: string;
  requestId: string;
  relayState: string;
  issueInstant: Date;
}

/**
 * The IdP's SSO URL with SAMLRequest and RelayState added to any query it already has (Bindings 3.4.4.1).
 * No NameIDPolicy Format: the IdP sends the format it is set up for (asking for one it lacks fails the
 * sign-in with InvalidNameIDPolicy); no RequestedAuthnContext, which IdPs that use MFA or Kerberos refuse.
 */
export function authnRequestUrl(config: Pick<Config, 'url'>, input: AuthnRequestInput): string {
  const xml = [
    `<samlp:AuthnRequest xmlns:samlp="${PROTOCOL}" xmlns:saml="${ASSERTION}"`,
    ` ID="${escapeXml(input.requestId)}" Version="2.0" IssueInstant="${input.issueInstant.toISOString()}"`,
    ` Destination="${escapeXml(input.idpSsoUrl)}" ProtocolBinding="${HTTP_POST}"`,
    ` AssertionConsumerServiceURL="${escapeXml(samlAcsUrl(config, input.orgName))}">`,
    `<saml:Issuer>${escapeXml(samlEntityId(config, input.orgName))}</saml:Issuer>`,
    '<samlp:NameIDPolicy AllowCreate="true"/>',
    '</samlp:AuthnRequest>',
  ].join('');
  const url = new URL(input.idpSsoUrl);
  url.searchParams.set('SAMLRequest', deflateRawSync(Buffer.from(xml, 'utf8')).toString('base64'));
  url.searchParams.set('RelayState', input.relayState);
  return url.toString();
}
