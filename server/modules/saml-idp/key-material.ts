/**
 * A new signing key of the SAML identity provider: RSA 2048 with SHA-256 (RSASSA-PKCS1-v1_5, XML Signature
 * rsa-sha256 of RFC 6931 section 2.3.2: the algorithm every SP library verifies) and a self-signed X.509
 * certificate, the form SAML metadata carries keys in (Metadata 2.4.1.1; SPs trust the key, not a chain).
 * @peculiar/x509 builds the certificate; it is loaded on the first key made (idle memory is budgeted).
 */
import { X509Certificate, randomBytes, webcrypto } from 'node:crypto';

export interface KeyMaterial {
  certificatePem: string;
  privateKeyPem: string;
  fingerprintSha256: string;
  notAfter: Date;
}

/** Ten years: SPs pin the certificate from metadata; the IdP's rotation, not expiry, is how keys change. */
const VALIDITY_MS = 10 * 365 * 24 * 3600 * 1000;
const ALGORITHM = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', publicExponent: new Uint8Array([1, 0, 1]), modulusLength: 2048 };

function pem(label: string, der: ArrayBuffer): string {
  const body = Buffer.from(der).toString('base64').match(/.{1,64}/g)!.join('\n');
  return `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----\n`;
}

/** `subject` is a common name only (no DN syntax comes from outside: the caller passes a fixed text). */
export async function generateKeyMaterial(commonName: string, now: Date): Promise<KeyMaterial> {
  // @peculiar/x509 registers its algorithms through tsyringe, which needs the Reflect metadata polyfill first.
  await import('reflect-metadata');
  const x509 = await import('@peculiar/x509');
  x509.cryptoProvider.set(webcrypto as unknown as Crypto);
  const keys = (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
  const notAfter = new Date(now.getTime() + VALIDITY_MS);
  // RFC 5280 section 4.1.2.2: a positive serial of up to 20 octets; the first bit cleared keeps it positive.
  const serial = randomBytes(16);
  serial[0]! &= 0x7f;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: `CN=${commonName.replace(/[,+="\\<>;#]/g, ' ')}`,
    notBefore: new Date(now.getTime() - 60_000),
    notAfter,
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)],
  });
  const certificatePem = certificate.toString('pem').replace(/\r\n/g, '\n').trim() + '\n';
  const privateKeyPem = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  return { certificatePem, privateKeyPem, fingerprintSha256: new X509Certificate(certificatePem).fingerprint256, notAfter };
}
