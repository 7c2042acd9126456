/**
 * Every module that contributes entities or operations, listed once
 * (docs/architecture.md#modules-and-the-registry). Written out by hand: the single executable cannot discover folders
 * (docs/architecture.md#the-single-executable). modules/entities.ts and ops/registry.ts derive their lists from this one, in this
 * order, which is the order of today's registry (REST routes, GraphQL fields) and entity list.
 *
 * email, sms, passwords and limits have no manifest: they hold neither entities nor operations.
 */
import type { AnyService, ModuleManifest } from './manifest.ts';
import type { Deps } from '../kernel/deps.ts';
import { metaModule } from './meta/index.ts';
import { accountsAdminModule, accountsModule } from './accounts/index.ts';
import { adminModule } from './admin/index.ts';
import { usersModule } from './users/index.ts';
import { sessionsModule } from './sessions/index.ts';
import { tokensModule } from './tokens/index.ts';
import { eventsModule } from './events/index.ts';
import { verificationModule } from './verification/index.ts';
import { messagesModule } from './messages/index.ts';
import { fgaModule } from './fga/index.ts';
import { clientsModule } from './clients/index.ts';
import { oauthModule } from './oauth/index.ts';
import { socialModule } from './social/index.ts';
import { mfaModule } from './mfa/index.ts';
import { webauthnModule } from './webauthn/index.ts';
import { emailTemplatesModule } from './email-templates/index.ts';
import { auditModule } from './audit/index.ts';
import { webhooksModule } from './webhooks/index.ts';
import { organizationsModule } from './organizations/index.ts';
import { orgDomainsModule } from './org-domains/index.ts';
import { scimModule } from './scim/index.ts';
import { orgSsoModule } from './org-sso/index.ts';
import { samlIdpModule } from './saml-idp/index.ts';

export type { ModuleManifest } from './manifest.ts';

export const MODULES: readonly ModuleManifest[] = [
  metaModule,
  accountsModule,
  adminModule,
  usersModule,
  accountsAdminModule,
  sessionsModule,
  tokensModule,
  eventsModule,
  verificationModule,
  messagesModule,
  fgaModule,
  clientsModule,
  oauthModule,
  socialModule,
  mfaModule,
  webauthnModule,
  emailTemplatesModule,
  auditModule,
  webhooksModule,
  organizationsModule,
  orgDomainsModule,
  scimModule,
  orgSsoModule,
  samlIdpModule,
];

/** Subscribes every module's hook handlers (kernel/hooks.ts); buildApp calls it, and again is harmless. */
export function wireModuleHooks(modules: readonly ModuleManifest[] = MODULES): void {
  for (const module of modules) for (const hook of module.hooks) hook.subscribe();
}

/**
 * Builds every module's services (manifest.ts ServiceSpec) onto `deps`, in module order; answers the
 * function that closes them, in reverse order. A service that fails to build closes those built before it.
 */
export async function startModuleServices(deps: Deps, modules: readonly ModuleManifest[] = MODULES): Promise<() => Promise<void>> {
  const built: { service: AnyService; value: unknown }[] = [];
  const closeAll = async () => {
    for (const { service, value } of built.reverse()) await service.close?.(value);
    built.length = 0;
  };
  try {
    for (const module of modules) {
      for (const service of module.services) {
        const value = await service.create(deps);
        (deps as unknown as Record<string, unknown>)[service.key] = value;
        built.push({ service, value });
      }
    }
  } catch (err) {
    await closeAll();
    throw err;
  }
  return closeAll;
}
