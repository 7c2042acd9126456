/**
 * A passkey authenticator inside the browser under test: Chromium's virtual authenticator over the DevTools
 * protocol (WebAuthn domain), a CTAP2 platform authenticator ("internal") that keeps discoverable credentials
 * (resident keys) and verifies its user without a prompt, so the ceremonies run headless.
 */
import type { CDPSession, Page } from '@playwright/test';

export interface VirtualAuthenticator {
  session: CDPSession;
  authenticatorId: string;
  /** The credentials it holds now (one per passkey registered). */
  credentials(): Promise<{ credentialId: string; isResidentCredential: boolean; rpId?: string; signCount: number }[]>;
}

export async function addVirtualAuthenticator(page: Page): Promise<VirtualAuthenticator> {
  const session = await page.context().newCDPSession(page);
  await session.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await session.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    session,
    authenticatorId,
    async credentials() {
      return (await session.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    },
  };
}
