/**
 * XML 1.0 sections 2.4 and 3.3.3: the characters that end or change an attribute value or text. One copy for
 * the XML this server writes as text: the SAML SP's metadata and AuthnRequest (org-sso/saml-sp.ts) and the
 * SAML IdP's metadata and responses (saml-idp).
 */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
