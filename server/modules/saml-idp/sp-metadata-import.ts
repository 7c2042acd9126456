/**
 * import_saml_sp_metadata (docs/operations.md, "SAML IdP": parses pasted SP metadata XML into prefill
 * fields; it creates no record and fetches nothing remotely). Reads the first SPSSODescriptor of an
 * EntityDescriptor (SAML 2.0 Metadata 2.3.2 and 2.4.4): the entityID, the HTTP-POST
 * AssertionConsumerServices (the binding this IdP answers with; others are left out), the signing
 * certificate, the NameID formats, the two signing flags and the SingleLogoutService with its binding (see
 * singleLogoutService). XML read through safe-xml.ts.
 */
import { AppError } from '../../kernel/errors.ts';
import type { Static } from '../../ops/schema.ts';
import type { SamlSpMetadataPrefill } from './service-provider.schema.ts';
import { UnsafeXmlError, childElements, descendants, parseSafeXml } from './safe-xml.ts';
import { HTTP_POST, SLO_BINDINGS, type SloBinding } from './sp-fields.ts';
import { pemOf } from './sp-certificate.ts';

const METADATA = 'urn:oasis:names:tc:SAML:2.0:metadata';
const XMLDSIG = 'http://www.w3.org/2000/09/xmldsig#';
export const MAX_METADATA_CHARS = 256 * 1024;

function spDescriptorOf(root: Element): { entityId: string; descriptor: Element } {
  const entities = root.namespaceURI === METADATA && root.localName === 'EntityDescriptor'
    ? [root]
    : root.namespaceURI === METADATA && root.localName === 'EntitiesDescriptor' ? childElements(root, METADATA, 'EntityDescriptor') : [];
  if (entities.length === 0) throw AppError.invalid('metadata_xml: not SAML metadata (no md:EntityDescriptor)');
  for (const entity of entities) {
    const descriptor = childElements(entity, METADATA, 'SPSSODescriptor')[0];
    if (descriptor) return { entityId: entity.getAttribute('entityID') ?? '', descriptor };
  }
  throw AppError.invalid('metadata_xml: no md:SPSSODescriptor');
}

function signingCertificate(descriptor: Element): string | undefined {
  for (const keyDescriptor of childElements(descriptor, METADATA, 'KeyDescriptor')) {
    const use = keyDescriptor.getAttribute('use');
    if (use && use !== 'signing') continue;
    const text = descendants(keyDescriptor, XMLDSIG, 'X509Certificate')[0]?.textContent?.trim();
    if (text) return pemOf(text);
  }
  return undefined;
}

/** Metadata 2.2.3: index is an xs:unsignedShort; a missing or unreadable one falls back to the position. */
function indexOf(value: string | null, position: number): number {
  const index = /^\d{1,5}$/.test(value ?? '') ? Number(value) : NaN;
  return index <= 65_535 ? index : position;
}

/**
 * The SP's SingleLogoutService this IdP answers: the first one, in the order the SP lists them, whose
 * binding is HTTP-Redirect or HTTP-POST (Metadata 2.4.2; mod_auth_mellon lists SOAP, which needs a back
 * channel this IdP does not open, before HTTP-Redirect). Its ResponseLocation when given, else its
 * Location: the IdP only ever sends it LogoutResponses (Metadata 2.2.2).
 */
function singleLogoutService(descriptor: Element): { url: string; binding: SloBinding } | undefined {
  for (const element of childElements(descriptor, METADATA, 'SingleLogoutService')) {
    const binding = (Object.entries(SLO_BINDINGS) as Array<[SloBinding, string]>).find(([, urn]) => urn === element.getAttribute('Binding'))?.[0];
    const url = (element.getAttribute('ResponseLocation') || element.getAttribute('Location'))?.trim();
    if (binding && url) return { url, binding };
  }
  return undefined;
}

export async function readSpMetadata(xml: string): Promise<Static<typeof SamlSpMetadataPrefill>> {
  let doc: Document;
  try {
    doc = await parseSafeXml(xml, MAX_METADATA_CHARS, 'metadata_xml');
  } catch (err) {
    if (err instanceof UnsafeXmlError) throw AppError.invalid(err.message);
    throw err;
  }
  const { entityId, descriptor } = spDescriptorOf(doc.documentElement);
  if (!entityId.trim()) throw AppError.invalid('metadata_xml: the EntityDescriptor has no entityID');
  const acs = childElements(descriptor, METADATA, 'AssertionConsumerService')
    .filter((element) => element.getAttribute('Binding') === HTTP_POST && element.getAttribute('Location'))
    .map((element, position) => ({
      url: element.getAttribute('Location')!,
      binding: HTTP_POST,
      index: indexOf(element.getAttribute('index'), position),
      is_default: element.getAttribute('isDefault') === 'true',
    }));
  const certificate = signingCertificate(descriptor);
  const slo = singleLogoutService(descriptor);
  return {
    entity_id: entityId.trim(),
    acs_endpoints: acs,
    ...(certificate ? { certificate } : {}),
    name_id_formats: childElements(descriptor, METADATA, 'NameIDFormat').map((element) => element.textContent?.trim() ?? '').filter(Boolean),
    authn_requests_signed: descriptor.getAttribute('AuthnRequestsSigned') === 'true',
    want_assertions_signed: descriptor.getAttribute('WantAssertionsSigned') === 'true',
    ...(slo ? { slo_url: slo.url, slo_binding: slo.binding } : {}),
  };
}
