/**
 * The few parts of `oidc-provider` (v9, which ships no types) that test/support/social-oidc-upstream.ts
 * uses. Loose on purpose: only the test upstream depends on it.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface OidcContext {
    oidc: {
      provider: Provider;
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown> & {
      interactions?: { url(ctx: OidcContext, interaction: { uid: string }): string };
      findAccount?(ctx: OidcContext, sub: string): Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> } | undefined>;
      loadExistingGrant?(ctx: OidcContext): Promise<Grant | undefined>;
    });
    Grant: new (init: { clientId: string; accountId: string }) => Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<{ uid: string; prompt: { name: string } }>;
    interactionFinished(req: IncomingMessage, res: ServerResponse, result: Record<string, unknown>, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  }
}
