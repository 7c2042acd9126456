/**
 * The organization's IdP metadata (SAML 2.0 Metadata 2.4.3 IDPSSODescriptor): its entity id (the metadata
 * address), WantAuthnRequestsSigned="false" (only SPs registered with a certificate must sign, a rule
 * kept per SP), the SingleLogoutService and SingleSignOnService for the HTTP-Redirect and HTTP-POST bindings, the NameID formats
 * served, and one KeyDescriptor use="signing" per current or published key (docs/api-overview.md#states-and-transitions: the
 * published key stays so SPs holding it keep validating during a rollover; retired keys leave). A few
 * fixed elements with escaped values: no XML library is loaded to write it.
 */
import type { Config } from '../../config/flags.ts';
import type { SamlIdpKeyRow } from './saml-idp.entities.ts';
import { idpEntityId, idpSloUrl, idpSsoUrl } from './idp-urls.ts';
import { HTTP_POST, HTTP_REDIRECT, NAMEID_FORMATS } from './sp-fields.ts';
import { escapeXml } from '../../kernel/xml-text.ts';

const METADATA = 'urn:oasis:names:tc:SAML:2.0:metadata';
const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';

function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

export function idpMetadataXml(config: Pick<Config, 'url'>, orgName: string, keys: SamlIdpKeyRow[]): string {
  const sso = escapeXml(idpSsoUrl(config, orgName));
  const slo = escapeXml(idpSloUrl(config, orgName));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<md:EntityDescriptor xmlns:md="${METADATA}" xmlns:ds="${XMLDSIG}" entityID="${escapeXml(idpEntityId(config, orgName))}">`,
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="false" protocolSupportEnumeration="${PROTOCOL}">`,
    ...keys.map((key) => `<md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certificateBody(key.certificatePem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>`),
    `<md:SingleLogoutService Binding="${HTTP_REDIRECT}" Location="${slo}"/>`,
    `<md:SingleLogoutService Binding="${HTTP_POST}" Location="${slo}"/>`,
    ...Object.values(NAMEID_FORMATS).map((format) => `<md:NameIDFormat>${format}</md:NameIDFormat>`),
    `<md:SingleSignOnService Binding="${HTTP_REDIRECT}" Location="${sso}"/>`,
    `<md:SingleSignOnService Binding="${HTTP_POST}" Location="${sso}"/>`,
    '</md:IDPSSODescriptor>',
    '</md:EntityDescriptor>',
    '',
  ].join('\n');
}
