/**
 * Single logout started by a service provider (SAML 2.0 Profiles 4.4.3, Core 3.7): a LogoutRequest sent to
 * /saml/<organization>/slo by the HTTP-Redirect binding (Bindings 3.4) or the HTTP-POST binding (Bindings
 * 3.5). Only an SP registered with a certificate and a SingleLogoutService may use it, and its request must
 * be signed (Profiles 4.4.4.1): by the Redirect binding's query signature (Bindings 3.4.4.1), or by an
 * enveloped XML signature of the request element for HTTP-POST (Core 5.4.2). An unsigned logout could be
 * forged by any page and would sign people out at will (logout CSRF). Otherwise the checks of an
 * AuthnRequest apply (authn-request.ts): size bounds, no DOCTYPE, Version, ID unique, freshness,
 * Destination, an active SP as Issuer; the ID is then answered once (request-replay.ts). The LogoutResponse
 * goes back by the binding the SP registered (logout-response.ts).
 */
import type { EntityManager } from '@mikro-orm/core';
import type { SamlServiceProviderRow } from './saml-idp.entities.ts';
import { findActiveServiceProvider } from './service-providers.service.ts';
import {
  SamlRequestError, checkFreshness, checkedRequestId, decode, issuerOf, parsedMessage, verifyPostSignature, verifyRedirectSignature, type ReceivedRequest,
} from './authn-request.ts';
import { childElements } from './safe-xml.ts';

const PROTOCOL = 'urn:oasis:names:tc:SAML:2.0:protocol';
const ASSERTION = 'urn:oasis:names:tc:SAML:2.0:assertion';

export interface ValidatedLogoutRequest {
  requestId: string;
  serviceProvider: SamlServiceProviderRow & { sloUrl: string };
  nameId: string;
  issueInstant: Date;
}

export async function validateLogoutRequest(
  received: ReceivedRequest,
  expected: { em: EntityManager; orgId: string; sloUrl: string; now: Date },
): Promise<ValidatedLogoutRequest> {
  const xml = decode(received);
  const doc = await parsedMessage(xml, 'LogoutRequest');
  const root = doc.documentElement;
  if (root.namespaceURI !== PROTOCOL || root.localName !== 'LogoutRequest') throw new SamlRequestError('not a samlp:LogoutRequest');
  const requestId = checkedRequestId(doc, root, 'LogoutRequest');
  const issueInstant = checkFreshness(root, expected.now, 'LogoutRequest');
  const destination = root.getAttribute('Destination');
  if (destination && destination !== expected.sloUrl) throw new SamlRequestError('LogoutRequest Destination is not this IdP');
  const sp = await findActiveServiceProvider(expected.em, expected.orgId, issuerOf(root, 'LogoutRequest'));
  if (!sp) throw new SamlRequestError('LogoutRequest Issuer is not an active service provider of this organization');
  if (!sp.certificatePem || !sp.sloUrl) throw new SamlRequestError('this service provider has no certificate and SingleLogoutService registered: no single logout');
  if (received.binding === 'redirect') verifyRedirectSignature(received.rawQuery, sp.certificatePem);
  else await verifyPostSignature(xml, root, requestId, sp.certificatePem, 'LogoutRequest');
  const nameId = childElements(root, ASSERTION, 'NameID')[0]?.textContent?.trim();
  if (!nameId) throw new SamlRequestError('LogoutRequest has no NameID');
  return { requestId, serviceProvider: sp as SamlServiceProviderRow & { sloUrl: string }, nameId, issueInstant };
}
