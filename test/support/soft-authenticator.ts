/**
 * A software WebAuthn authenticator and client for tests (W3C WebAuthn Level 3): takes the options JSON the
 * server sends and answers the JSON text @simplewebauthn/browser would send, with no browser.
 *
 * - Keys: ES256 (P-256) from node:crypto; the public key as a COSE_Key (RFC 9053 section 7.1.1).
 * - Registration: attestation format `none` (section 8.7), attestationObject as CBOR {fmt, attStmt, authData};
 *   authenticatorData (section 6.1) = SHA-256(RP ID) | flags UP, UV, AT | counter | attested credential data
 *   (AAGUID of zeros, credential id length and id, COSE key).
 * - Assertion: authenticatorData without attested data, signed with the credential's key over
 *   authenticatorData || SHA-256(clientDataJSON) (section 6.3.3), DER-encoded ECDSA.
 * Every check the server makes can be broken on purpose: another origin, another RP ID, no UV flag, a
 * chosen counter, a changed challenge.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface SoftCredential {
  id: Buffer;
  privateKey: KeyObject;
  publicKeyCose: Uint8Array;
  userHandle: string;
  rpId: string;
  counter: number;
}

export interface Tweaks {
  origin?: string;
  rpId?: string;
  /** Whether the UV flag is set; default true. */
  userVerified?: boolean;
  /** The counter to report (assertions default to the stored one plus one; registration to 0). */
  counter?: number;
  /** Another challenge than the options' (base64url). */
  challenge?: string;
  /** The credential to assert with, instead of the one picked from allowCredentials. */
  credential?: SoftCredential;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(new Map<number, number | Uint8Array>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]));
}

function counterBytes(counter: number): Buffer {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(counter);
  return out;
}

export class SoftAuthenticator {
  readonly credentials: SoftCredential[] = [];
  readonly origin: string;
  readonly rpId: string;
  constructor(origin: string, rpId = new URL(origin).hostname) {
    this.origin = origin;
    this.rpId = rpId;
  }

  private clientData(type: string, challenge: string, tweaks: Tweaks): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge: tweaks.challenge ?? challenge, origin: tweaks.origin ?? this.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create(): answers RegistrationResponseJSON as text, and keeps the credential. */
  register(optionsJson: string, tweaks: Tweaks = {}): string {
    const options = JSON.parse(optionsJson) as { challenge: string; rp: { id: string }; user: { id: string }; excludeCredentials?: { id: string }[] };
    const excluded = new Set((options.excludeCredentials ?? []).map((c) => c.id));
    if (this.credentials.some((c) => excluded.has(c.id.toString('base64url')))) throw new Error('InvalidStateError: this authenticator already holds a credential of the account');
    const rpId = tweaks.rpId ?? this.rpId;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential: SoftCredential = { id: randomBytes(32), privateKey, publicKeyCose: coseKey(publicKey), userHandle: options.user.id, rpId: options.rp.id, counter: tweaks.counter ?? 0 };
    const flags = FLAG_UP | FLAG_AT | (tweaks.userVerified === false ? 0 : FLAG_UV);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([flags]), counterBytes(credential.counter), Buffer.alloc(16), idLength, credential.id, credential.publicKeyCose]);
    const attestationObject = isoCBOR.encode(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]) as never);
    this.credentials.push(credential);
    const id = credential.id.toString('base64url');
    return JSON.stringify({
      id,
      rawId: id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, tweaks).toString('base64url'),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['hybrid', 'internal'],
      },
    });
  }

  /** navigator.credentials.get(): answers AuthenticationResponseJSON as text. */
  assert(optionsJson: string, tweaks: Tweaks = {}): string {
    const options = JSON.parse(optionsJson) as { challenge: string; rpId: string; allowCredentials?: { id: string }[] };
    const allowed = new Set((options.allowCredentials ?? []).map((c) => c.id));
    const credential =
      tweaks.credential ??
      this.credentials.find((c) => c.rpId === options.rpId && (allowed.size === 0 || allowed.has(c.id.toString('base64url'))));
    if (!credential) throw new Error('NotAllowedError: no credential of this authenticator is allowed');
    const counter = tweaks.counter ?? credential.counter + 1;
    credential.counter = counter;
    const flags = FLAG_UP | (tweaks.userVerified === false ? 0 : FLAG_UV);
    const authData = Buffer.concat([sha256(tweaks.rpId ?? this.rpId), Buffer.from([flags]), counterBytes(counter)]);
    const clientData = this.clientData('webauthn.get', options.challenge, tweaks);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientData)]), credential.privateKey);
    const id = credential.id.toString('base64url');
    return JSON.stringify({
      id,
      rawId: id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: credential.userHandle,
      },
    });
  }
}
