/**
 * The single executable carries both frontends: a copy run alone in an empty folder (no dist/ui beside it)
 * serves the login UI, the console and their assets from its SEA assets.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePorts, isolatedCopy, run, serverFlags, stop, waitFor200, type Ports, type Running } from './executable.ts';

const UI_BUILD = join(import.meta.dirname, '..', '..', 'dist', 'ui');

describe('single executable: embedded UIs', () => {
  let copy: ReturnType<typeof isolatedCopy>;
  let ports: Ports;
  let server: Running;
  before(async () => {
    copy = isolatedCopy();
    ports = await freePorts();
    server = run(copy.executable, serverFlags(copy.dir, ports), copy.dir);
    await waitFor200(`http://127.0.0.1:${ports.http}/readyz`, server, performance.now());
  });
  after(async () => {
    if (server) await stop(server);
    copy?.cleanup();
  });

  test('serves /app and /dashboard with their scripts and styles from inside the executable', async () => {
    assert.ok(!existsSync(join(copy.dir, 'ui')) && !existsSync(join(copy.dir, 'dist')), 'nothing beside the executable');
    for (const prefix of ['app', 'dashboard']) {
      const page = await fetch(`http://127.0.0.1:${ports.http}/${prefix}/`);
      assert.equal(page.status, 200, prefix);
      const html = await page.text();
      const assets = [...html.matchAll(new RegExp(`(?:src|href)="(/${prefix}/assets/[^"]+)"`, 'g'))].map((match) => match[1]!);
      assert.ok(assets.some((path) => path.endsWith('.js')) && assets.some((path) => path.endsWith('.css')), `${prefix} names a script and a stylesheet`);
      for (const path of assets) {
        const asset = await fetch(`http://127.0.0.1:${ports.http}${path}`);
        const bytes = Buffer.from(await asset.arrayBuffer());
        assert.equal(asset.status, 200, path);
        // The very bytes Vite built (dist/ui), served from inside the executable.
        assert.ok(bytes.equals(readFileSync(join(UI_BUILD, path.slice(1)))), `${path} is the built file`);
      }
    }
  });
});
