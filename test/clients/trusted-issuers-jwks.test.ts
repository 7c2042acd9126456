/**
 * JWKS fetching and caching of trusted issuers (modules/clients/jwks-cache.ts) against real loopback HTTP
 * servers: a document over the size cap, a redirect, a non-200 answer, a slow server past the timeout and a
 * document without keys are refused with a message safe to show; private members are dropped; the cache
 * serves repeated verifications without fetching, refetches after its TTL, holds a failure briefly, and
 * keeps using known keys while the issuer is down, for at most MAX_STALE_MS.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { FAILURE_HOLD_MS, MAX_STALE_MS, JwksCache, JwksUnavailableError, TTL_MS, fetchJwks } from '../../server/modules/clients/jwks-cache.ts';
import { newSigningKey, signAssertion } from '../oauth/trusted-issuer-fixture.ts';

type Handler = Parameters<typeof createServer>[1];

/** The issuer here is a loopback server: fetched as under --trusted-issuer-allow-private-addresses=true. */
const LOOPBACK = { allowPrivate: true } as const;
const loopbackFetcher = (target: string) => fetchJwks(target, LOOPBACK);

async function serve(handler: NonNullable<Handler>): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('JWKS fetch and cache', () => {
  const servers: Server[] = [];
  let mode: 'ok' | 'huge' | 'redirect' | 'error' | 'slow' | 'nokeys' | 'private' = 'ok';
  let fetches = 0;
  let url = '';
  let published: Record<string, unknown>[] = [];

  before(async () => {
    const key = await newSigningKey('ES256');
    published = [key.publicJwk as Record<string, unknown>];
    const started = await serve((req, res) => {
      fetches += 1;
      if (mode === 'huge') return res.writeHead(200).end(JSON.stringify({ keys: [], pad: 'x'.repeat(300 * 1024) }));
      if (mode === 'redirect') return res.writeHead(302, { location: 'http://169.254.169.254/latest' }).end();
      if (mode === 'error') return res.writeHead(500).end('{}');
      if (mode === 'slow') return void setTimeout(() => res.writeHead(200).end(JSON.stringify({ keys: published })), 7000);
      if (mode === 'nokeys') return res.writeHead(200).end('{"issuer":"x"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: published }));
    });
    servers.push(started.server);
    url = `${started.url}/jwks`;
  });
  after(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('bounded fetches: size cap, no redirects, non-200, missing keys, timeout', async () => {
    mode = 'huge';
    await assert.rejects(fetchJwks(url, LOOPBACK), (err: Error) => err instanceof JwksUnavailableError && /too large/.test(err.message));
    mode = 'redirect';
    await assert.rejects(fetchJwks(url, LOOPBACK), (err: Error) => err instanceof JwksUnavailableError && /could not be fetched/.test(err.message));
    mode = 'error';
    await assert.rejects(fetchJwks(url, LOOPBACK), /HTTP 500/);
    mode = 'nokeys';
    await assert.rejects(fetchJwks(url, LOOPBACK), /no keys array/);
    mode = 'slow';
    const started = Date.now();
    await assert.rejects(fetchJwks(url, { ...LOOPBACK, timeoutMs: 300 }), /could not be fetched/);
    assert.ok(Date.now() - started < 3000, 'the timeout ends the wait');
    mode = 'ok';
    assert.equal((await fetchJwks(url, LOOPBACK)).keys.length, 1);
  });

  test('a published private key is not kept as a key', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const saved = published;
    published = [...saved, { ...privateJwk, kid: 'leaked' }];
    try {
      const jwks = await fetchJwks(url, LOOPBACK);
      assert.equal(jwks.keys.length, 1);
      assert.ok(!jwks.keys.some((k) => 'd' in k));
    } finally {
      published = saved;
    }
  });

  test('the cache serves from memory, refetches after the TTL, holds failures and keeps known keys while the issuer is down', async () => {
    let now = 1_000_000;
    const cache = new JwksCache({ now: () => now, fetcher: loopbackFetcher });
    const key = await newSigningKey('ES256');
    published = [key.publicJwk as Record<string, unknown>];
    mode = 'ok';
    const options = { algorithms: ['ES256'], currentDate: new Date() };
    const token = () => signAssertion(key, { iss: 'i', sub: 's' });
    const before = fetches;
    await cache.verify(url, await token(), options);
    await cache.verify(url, await token(), options);
    assert.equal(fetches, before + 1, 'one fetch for two verifications');

    now += TTL_MS + 1;
    mode = 'error';
    // Past the TTL the issuer is asked again; it fails, but the keys held are still used (not too old).
    await cache.verify(url, await token(), options);
    assert.equal(fetches, before + 2);
    // The failure is held: no new fetch within FAILURE_HOLD_MS.
    await cache.verify(url, await token(), options);
    assert.equal(fetches, before + 2);
    now += FAILURE_HOLD_MS + 1;
    mode = 'ok';
    await cache.verify(url, await token(), options);
    assert.equal(fetches, before + 3, 'asked again once the hold ends');

    // Down for longer than MAX_STALE_MS after the last good fetch: the old keys stop verifying.
    now += MAX_STALE_MS + 1;
    mode = 'error';
    await assert.rejects(cache.verify(url, await token(), options), JwksUnavailableError);
    mode = 'ok';

    // An issuer never reached: the failure is the caller's refusal, held too.
    const fresh = new JwksCache({ now: () => now, fetcher: loopbackFetcher });
    mode = 'error';
    await assert.rejects(fresh.verify(url, await token(), options), JwksUnavailableError);
    const count = fetches;
    await assert.rejects(fresh.verify(url, await token(), options), /recently/);
    assert.equal(fetches, count);
    mode = 'ok';
  });
});
