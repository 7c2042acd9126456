/**
 * The server of the console's operations journeys (webhooks, email templates, audit log): the console
 * fixture's executable with `--webhook-allow-private-addresses=true`, so a webhook may point at a receiver
 * on loopback (README "Webhooks": such addresses are refused otherwise), and an organization name with
 * HTML's special characters, so a template preview shows the sample values escaped.
 */
import { test as base, expect } from '@playwright/test';
import { portcullisFixture } from './fixtures.ts';
import type { ConsoleServer } from './console-fixtures.ts';

export const ORGANIZATION = 'Acme <Ops> & Co';

export const test = base.extend<object, { consoleServer: ConsoleServer }>({
  consoleServer: [
    portcullisFixture(['--webhook-allow-private-addresses=true', '--organization-name', ORGANIZATION]),
    { scope: 'worker', timeout: 60_000 },
  ],
});

export { expect };
