/**
 * A trusted issuer for tests: a real key pair (jose), its JWKS served over loopback HTTP by node:http (the
 * keys served can be swapped and the fetches are counted), assertions signed with real crypto, and the admin
 * REST calls that register a client and the issuer.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import type { TestServer } from '../support/app.ts';
import { adminClient } from '../support/admin-client.ts';

export const TOKEN_ENDPOINT_AUD = 'http://127.0.0.1:8080/oauth/token';
/**
 * The JWKS servers here listen on loopback, which a server refuses to fetch from (an SSRF guard) unless it
 * runs with this flag, as a test or closed-network deployment does.
 */
export const LOOPBACK_JWKS_FLAG = '--trusted-issuer-allow-private-addresses=true';
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export interface SigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
  publicJwk: JWK;
}

export async function newSigningKey(alg = 'ES256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  return { kid, alg, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export class JwksServer {
  keys: JWK[] = [];
  fetches = 0;
  readonly #server: Server;
  url = '';

  constructor() {
    this.#server = createServer((_req, res) => {
      this.fetches += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: this.keys }));
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/jwks.json`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

/** A signed JWT; `claims` override the defaults (exp in 2 minutes, a fresh jti, iat now). */
export async function signAssertion(key: SigningKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iat: now, exp: now + 120, jti: randomUUID(), ...claims })
    .setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT', ...header })
    .sign(key.privateKey);
}

export async function createClient(server: TestServer, input: Record<string, unknown> = {}): Promise<any> {
  return (await adminClient(server).ok('create_client', { name: 'workload', allowed_scopes: ['jobs:read', 'jobs:run'], ...input })).client;
}

export function addIssuer(server: TestServer, input: Record<string, unknown>): Promise<any> {
  return adminClient(server).ok('add_trusted_issuer', input);
}

export async function tokenRequest(server: TestServer, form: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}
