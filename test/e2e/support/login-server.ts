/**
 * The login UI journeys need the account flows that mail or text something: a server like the shared
 * fixture's (fixtures.ts: the built executable, SMTP and SMS sinks, the relying application, 'Acme Cloud',
 * no rate limit) with email verification, magic links and phone verification switched on (all off by
 * default; docs/configuration.md#defaults). Same `portcullis` fixture shape, so the journeys read the same.
 *
 *   import { test, expect } from './support/login-server.ts';
 */
import { test as base, expect, portcullisFixture, type Portcullis } from './fixtures.ts';

/** The flags that turn on the mailed and texted flows the login UI offers. */
export const LOGIN_FLOW_FLAGS = [
  '--enable-email-verification=true',
  '--enable-magic-link-login=true',
  '--enable-phone-verification=true',
];

export const test = base.extend<object, { portcullis: Portcullis }>({
  portcullis: [portcullisFixture(LOGIN_FLOW_FLAGS), { scope: 'worker', timeout: 60_000 }],
});

export { expect };
