/**
 * The signing certificate of a downstream service provider, checked when an administrator gives it: one
 * X.509 certificate (PEM, or the bare base64 of <ds:X509Certificate> in SP metadata), unexpired, with an
 * RSA key of at least 2048 bits or an EC key (XML Signature rsa-sha256 / ecdsa-sha256, RFC 6931; smaller
 * RSA keys are forgeable, NIST SP 800-131A). Stored as normalised PEM.
 */
import { X509Certificate } from 'node:crypto';
import { AppError } from '../../kernel/errors.ts';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const MIN_RSA_BITS = 2048;

export function pemOf(base64: string): string {
  const compact = base64.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw AppError.invalid('certificate: not a PEM or base64 X.509 certificate');
  return `-----BEGIN CERTIFICATE-----\n${compact.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
}

export function checkedSpCertificate(text: string, now: Date): string {
  const blocks = [...text.matchAll(PEM_BLOCK)].map((match) => match[1]!);
  if (blocks.length > 1) throw AppError.invalid('certificate: give one certificate');
  const pem = pemOf(blocks[0] ?? text);
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(pem);
  } catch {
    throw AppError.invalid('certificate: not a readable X.509 certificate');
  }
  if (new Date(certificate.validTo).getTime() <= now.getTime()) throw AppError.invalid('certificate: the certificate has expired');
  const key = certificate.publicKey;
  const rsaOk = key.asymmetricKeyType === 'rsa' && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= MIN_RSA_BITS;
  if (!rsaOk && key.asymmetricKeyType !== 'ec') throw AppError.invalid(`certificate: the key must be RSA of at least ${MIN_RSA_BITS} bits or EC`);
  return pem;
}

export function certificateFingerprint(pem: string): string {
  return new X509Certificate(pem).fingerprint256;
}
