/**
 * Encryption of secrets at rest (TOTP seeds, OTP digests, upstream client secrets): AES-256-GCM with a key
 * derived by HKDF-SHA256 from --encryption-key, or from --jwt-secret on HMAC deployments
 * (docs/configuration.md#required). Never a constant fallback (docs/security-lessons.md).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { Config } from '../config/flags.ts';

const VERSION = 'v1';

export interface Sealer {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSealer(config: Pick<Config, 'encryptionKey' | 'jwtSecret'>): Sealer {
  const material = config.encryptionKey || config.jwtSecret;
  if (!material) throw new Error('no key for encryption at rest: set --encryption-key');
  const key = Buffer.from(hkdfSync('sha256', material, 'portcullis-at-rest', VERSION, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${VERSION}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed) {
      const [version, ivText, bodyText] = sealed.split('.');
      if (version !== VERSION || !ivText || !bodyText) throw new Error('sealed value has an unknown format');
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}
