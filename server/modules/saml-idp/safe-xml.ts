/**
 * The one way this IdP reads XML it is sent (SP metadata, AuthnRequests): a size bound first, then a
 * refusal of any DOCTYPE or ENTITY declaration before parsing (SAML messages and metadata have none; a DTD
 * is the door to external entities, XXE, and to entity expansion, "billion laughs": OWASP XML External
 * Entity Prevention Cheat Sheet), then @xmldom/xmldom, loaded on first use, which fetches nothing. A
 * document with parse errors is refused rather than read half-way.
 */
export class UnsafeXmlError extends Error {
  override readonly name = 'UnsafeXmlError';
}

type XmlDom = typeof import('@xmldom/xmldom');
let loaded: Promise<XmlDom> | undefined;

export function loadXmlDom(): Promise<XmlDom> {
  loaded ??= import('@xmldom/xmldom');
  return loaded;
}

export async function parseSafeXml(xml: string, maxChars: number, what: string): Promise<Document> {
  if (xml.length > maxChars) throw new UnsafeXmlError(`${what} is too large`);
  if (/<!DOCTYPE/i.test(xml) || /<!ENTITY/i.test(xml)) throw new UnsafeXmlError(`${what} has a DOCTYPE or ENTITY declaration, which is refused`);
  const { DOMParser } = await loadXmlDom();
  const problems: string[] = [];
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: (message: string) => void problems.push(message), fatalError: (message: string) => void problems.push(message) },
  }).parseFromString(xml, 'text/xml') as unknown as Document;
  if (problems.length > 0 || !doc?.documentElement) throw new UnsafeXmlError(`${what} is not well-formed XML`);
  return doc;
}

/** Child elements of `parent` named `localName` in `namespace`, in document order. */
export function childElements(parent: Element, namespace: string, localName: string): Element[] {
  const out: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    const element = node as Element;
    if (node.nodeType === 1 && element.namespaceURI === namespace && element.localName === localName) out.push(element);
  }
  return out;
}

/** Descendant elements named `localName` in `namespace`. */
export function descendants(parent: Element | Document, namespace: string, localName: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(namespace, localName) as unknown as ArrayLike<Element>);
}
