/**
 * Builds the transport-neutral OpContext from a gRPC call and turns ResponseEffects into metadata.
 * Credentials are the metadata twins of the HTTP headers (docs/api-overview.md#authentication: `authorization: Bearer`,
 * `cookie`, `x-service-admin-secret`); cookies an operation sets go back as `set-cookie` initial metadata,
 * one entry per cookie.
 */
import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { Metadata, type ServerUnaryCall } from '@grpc/grpc-js';
import proxyAddr from '@fastify/proxy-addr';
import type { Deps } from '../../kernel/deps.ts';
import type { OpContext } from '../../kernel/context.ts';
import { ResponseEffects, parseCookieHeader, serializeCookie } from '../../kernel/effects.ts';
import { bearerFrom } from '../http/request-context.ts';

function stringValues(metadata: Metadata, key: string): string[] {
  return metadata.get(key).filter((value): value is string => typeof value === 'string');
}

function firstValue(metadata: Metadata, key: string): string | undefined {
  return stringValues(metadata, key)[0];
}

/**
 * grpc-js reports a TCP peer as `address:port` (IPv6 without brackets, so the port is always the last
 * `:digits`), sometimes with an `ipv4:`/`ipv6:` scheme or brackets; the client IP is the address alone.
 * Anything unrecognised is kept as given.
 */
export function peerAddress(peer: string): string {
  const bare = peer.replace(/^ipv[46]:/, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(bare);
  if (bracketed) return bracketed[1]!;
  const withoutPort = bare.replace(/:\d+$/, '');
  return isIP(withoutPort) ? withoutPort : bare;
}

export type ClientIp = (call: ServerUnaryCall<unknown, unknown>) => string;

/**
 * The client IP per --trusted-proxies (docs/configuration.md), by the rule Fastify's trustProxy applies to
 * HTTP, from the same package (@fastify/proxy-addr, fastify's own dependency): the address list is the peer
 * followed by the `x-forwarded-for` entries from right to left, and the client is the first address whose
 * right neighbour is not trusted. Without --trusted-proxies the peer is the client and the metadata is
 * ignored, so a caller cannot choose the IP its rate limit is counted against.
 */
export function clientIpResolver(trustedProxies: readonly string[]): ClientIp {
  if (trustedProxies.length === 0) return (call) => peerAddress(call.getPeer());
  const trust = proxyAddr.compile([...trustedProxies]);
  return (call) => {
    const peer = peerAddress(call.getPeer());
    // Several entries are one header split up (RFC 7239 section 7.1 / RFC 9110 section 5.3 list rule).
    const forwarded = stringValues(call.metadata, 'x-forwarded-for').join(', ');
    if (!isIP(peer) || !forwarded) return peer;
    const request = { socket: { remoteAddress: peer }, headers: { 'x-forwarded-for': forwarded } };
    return proxyAddr(request as unknown as Parameters<typeof proxyAddr>[0], trust);
  };
}

export function buildGrpcContext(deps: Deps, call: ServerUnaryCall<unknown, unknown>, clientIp: ClientIp): OpContext {
  const requestId = randomUUID();
  const metadata = call.metadata;
  return {
    deps,
    req: {
      requestId,
      protocol: 'grpc',
      ip: clientIp(call),
      userAgent: firstValue(metadata, 'user-agent'),
      origin: firstValue(metadata, 'origin'),
      host: call.getHost() || undefined,
    },
    credentials: {
      bearer: bearerFrom(firstValue(metadata, 'authorization')),
      // Several `cookie` entries are one cookie header split up (RFC 6265 section 5.4 joins with "; ").
      cookies: parseCookieHeader(stringValues(metadata, 'cookie').join('; ') || undefined),
      adminSecretHeader: firstValue(metadata, 'x-service-admin-secret'),
    },
    effects: new ResponseEffects(),
    log: deps.logger.child({ requestId }),
    caller: { kind: 'anonymous' },
  };
}

/** `set-cookie` initial metadata, one entry per cookie the operation set or cleared. */
export function effectsMetadata(effects: ResponseEffects): Metadata {
  const metadata = new Metadata();
  for (const cookie of effects.cookies) metadata.add('set-cookie', serializeCookie(cookie));
  return metadata;
}
