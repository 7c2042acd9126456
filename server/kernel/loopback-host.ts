/**
 * Hosts that name this machine only: `localhost`, 127.0.0.0/8 and [::1]. Plain http to them never crosses a
 * network, which is why RFC 8252 sections 7.3 and 8.3 allow it for native apps' redirect URIs; the SAML
 * IdP allows it for a developer's SP addresses (saml-idp/sp-fields.ts), and the client registry for
 * post-logout redirect URIs and trusted issuers' JWKS URLs (clients/clients.schema.ts,
 * clients/trusted-issuers.schema.ts), for the same reason.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
