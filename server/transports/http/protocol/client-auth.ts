/**
 * Client identification at the OAuth endpoints. Only the instance client exists until clients are
 * registered (a later issue). The refresh grant and revocation are open to public clients (the browser SDK
 * sends client_id only), so credentials are optional; but what is presented must be right: a client_id other
 * than the instance's, or a wrong client_secret, is invalid_client (RFC 6749 section 2.3, 5.2). The secret
 * may come as HTTP Basic (client_secret_basic) or in the body (client_secret_post).
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../../config/flags.ts';
import { constantTimeEqual } from '../../../kernel/crypto.ts';
import { stringField, type OAuthBody } from './request-body.ts';

export type ClientCheck = { ok: true } | { ok: false; description: string; usedBasic: boolean };

function basicCredentials(request: FastifyRequest): { id: string; secret: string } | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  // RFC 6749 section 2.3.1: both parts are form-urlencoded before being joined.
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      return part;
    }
  };
  return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
}

export function checkClient(config: Config, request: FastifyRequest, body: OAuthBody): ClientCheck {
  const basic = basicCredentials(request);
  const usedBasic = basic !== undefined;
  const bodyId = stringField(body, 'client_id');
  if (basic && bodyId !== undefined && bodyId !== basic.id) {
    return { ok: false, description: 'client_id in the body differs from the Authorization header', usedBasic };
  }
  const clientId = basic?.id ?? bodyId;
  if (clientId !== undefined && !constantTimeEqual(clientId, config.clientId ?? '')) {
    return { ok: false, description: 'unknown client_id', usedBasic };
  }
  const secret = basic?.secret ?? stringField(body, 'client_secret');
  if (secret !== undefined && !constantTimeEqual(secret, config.clientSecret ?? '')) {
    return { ok: false, description: 'client authentication failed', usedBasic };
  }
  return { ok: true };
}
