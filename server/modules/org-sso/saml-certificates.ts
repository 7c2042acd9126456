/**
 * The IdP signing certificates of a SAML connection, checked when an administrator gives them: each must
 * parse as X.509 (node:crypto X509Certificate), not be expired, and carry an RSA key of at least 2048 bits
 * (XML Signature's RSA-SHA* methods, the ones IdPs use and the validator accepts; smaller keys are
 * forgeable, NIST SP 800-131A). Given as PEM blocks, or as the bare base64 an IdP's metadata shows in
 * <ds:X509Certificate>. Stored as normalised PEM; answered as fingerprints, subjects and expiry dates only.
 */
import { X509Certificate } from 'node:crypto';
import { AppError } from '../../kernel/errors.ts';

export const MAX_IDP_CERTIFICATES = 4;
const MIN_RSA_BITS = 2048;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export interface CertificateFacts {
  fingerprintSha256: string;
  subject: string;
  notAfter: Date;
}

function bodies(text: string): string[] {
  const blocks = [...text.matchAll(PEM_BLOCK)].map((match) => match[1]!);
  if (blocks.length > 0) return blocks;
  // No PEM armour: one bare base64 certificate, as copied from IdP metadata.
  return text.trim() ? [text] : [];
}

function toPem(body: string): string {
  const compact = body.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw AppError.invalid('idp_certificate: not a PEM or base64 X.509 certificate');
  return `-----BEGIN CERTIFICATE-----\n${compact.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}

function parsed(pem: string): X509Certificate {
  try {
    return new X509Certificate(pem);
  } catch {
    throw AppError.invalid('idp_certificate: not a readable X.509 certificate');
  }
}

/** The certificates in `text`, each checked; refuses an empty, expired, weak or unreadable one. */
export function checkedCertificates(text: string, now: Date): string[] {
  const found = bodies(text);
  if (found.length === 0) throw AppError.invalid('idp_certificate: give the IdP signing certificate in PEM');
  if (found.length > MAX_IDP_CERTIFICATES) throw AppError.invalid(`idp_certificate: at most ${MAX_IDP_CERTIFICATES} certificates`);
  const pems = found.map(toPem);
  for (const pem of pems) {
    const certificate = parsed(pem);
    if (new Date(certificate.validTo).getTime() <= now.getTime()) throw AppError.invalid('idp_certificate: the certificate has expired');
    const key = certificate.publicKey;
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    if (key.asymmetricKeyType !== 'rsa' || bits < MIN_RSA_BITS) throw AppError.invalid(`idp_certificate: the key must be RSA of at least ${MIN_RSA_BITS} bits`);
  }
  return [...new Set(pems)];
}

export function certificateFacts(pem: string): CertificateFacts {
  const certificate = new X509Certificate(pem);
  return {
    fingerprintSha256: certificate.fingerprint256,
    subject: certificate.subject.replace(/\n/g, ', '),
    notAfter: new Date(certificate.validTo),
  };
}
