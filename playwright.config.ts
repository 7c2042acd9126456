/**
 * Browser journeys (test/e2e/*.spec.ts) in Debian's Chromium (`apt-get install chromium`; Playwright's own
 * browser download is never used: the machine reaches no browser CDN). Each worker starts the built single
 * executable (dist/portcullis) on a temporary SQLite database with a local SMTP sink (test/e2e/support).
 * One worker: the machine has two cores, and the server under test needs one.
 * Screenshots of the main screens are written to .tmp/screenshots (kept as artifacts).
 */
import { defineConfig } from '@playwright/test';

export const CHROMIUM = '/usr/bin/chromium';

export default defineConfig({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: '.tmp/playwright',
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      // Without the background-networking flags Chromium tries Google's hosts at start on this closed network.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
    },
  },
});
