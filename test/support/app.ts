/**
 * Test harness: builds a real server (real SQLite file, or a database config from databases.ts) from
 * flags, binds it to free ports, and tears it down. Tests talk to it over real HTTP and gRPC.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../server/config/parse.ts';
import { buildApp, type App, type AppOverrides } from '../../server/app.ts';
import { listenApp, type BoundPorts } from '../../server/listen.ts';

export const ADMIN_SECRET = 'test-admin-secret';
export const CLIENT_ID = 'test-client';
export const CLIENT_SECRET = 'test-client-secret';
/** RFC 7518 section 3.2: an HMAC key at least as long as the hash; 64 bytes serve HS256 to HS512. */
export const TEST_JWT_SECRET = 'test-jwt-secret-0123456789abcdef-0123456789abcdef-0123456789abcd';

export interface TestServer {
  app: App;
  ports: BoundPorts;
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  close(): Promise<void>;
}

/** Flags every test server gets; `extra` comes last so a test can override any of them. */
export function baseFlags(dir: string): string[] {
  return [
    '--database-type', 'sqlite',
    '--database-url', join(dir, 'portcullis.db'),
    '--url', 'http://127.0.0.1:8080',
    '--client-id', CLIENT_ID,
    '--client-secret', CLIENT_SECRET,
    '--admin-secret', ADMIN_SECRET,
    '--jwt-type', 'HS256',
    '--jwt-secret', TEST_JWT_SECRET,
    '--host', '127.0.0.1',
    '--http-port', '0',
    '--grpc-port', '0',
    '--metrics-port', '0',
    '--log-level', 'silent',
    // Tests call from one address far faster than any person; the per-IP limit has its own tests.
    '--rate-limit-rps', '0',
  ];
}

/** Starts a server on free ports (port 0 everywhere). */
export async function startServer(extra: string[] = [], overrides: AppOverrides = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'portcullis-test-'));
  const config = parseConfig([...baseFlags(dir), ...extra]);
  const app = await buildApp(config, overrides);
  const ports = await listenApp(app);
  return {
    app,
    ports,
    baseUrl: `http://127.0.0.1:${ports.http}`,
    async close() {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
