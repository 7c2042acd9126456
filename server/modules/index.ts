/**
 * Every module that contributes entities or operations, listed once
 * (docs/architecture.md#modules-and-the-registry). Written out by hand: the single executable cannot discover folders
 * (docs/architecture.md#the-single-executable). modules/entities.ts and ops/registry.ts derive their lists from this one, in this
 * order, which is the order of today's registry (REST routes, GraphQL fields) and entity list.
 *
 * email, sms and passwords have no manifest: they hold neither entities nor operations. limits has one for
 * the metric it declares, listed first so that the metrics listener keeps its order of series.
 */
import type { AnyService, ModuleManifest, Worker } from './manifest.ts';
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
import { deviceGrantModule } from './oauth/device/index.ts';
import { backchannelLogoutModule } from './oauth/backchannel/index.ts';
import { tokenExchangeModule } from './oauth/token-exchange/index.ts';
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
import { authzenModule } from './authzen/index.ts';
import { limitsModule } from './limits/index.ts';

export type { ModuleManifest } from './manifest.ts';

export const MODULES: readonly ModuleManifest[] = [
  limitsModule,
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
  deviceGrantModule,
  backchannelLogoutModule,
  tokenExchangeModule,
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
  authzenModule,
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

/** Every module's background workers (manifest.ts WorkerSpec), created but not started. */
export interface ModuleWorkers {
  /** The worker a module declares under `name` (App.outbox, App.webhooks); throws when none does. */
  named<W extends Worker>(name: string): W;
  /** The Deps members requests reach workers through (WorkerSpec.depsKey: Deps.outbox). */
  readonly depsMembers: Partial<Deps>;
  /** Starts them in module order. */
  start(deps: Deps): void;
  /** Stops them in reverse order; a running job finishes its writes, so storage closes after. */
  stop(): Promise<void>;
}

/**
 * Creates every module's workers with the options given by worker name (tests shorten retries and polls);
 * refuses two workers of one name, which would make the options and App's accessors ambiguous.
 */
export function createModuleWorkers(
  options: Readonly<Record<string, object | undefined>> = {},
  modules: readonly ModuleManifest[] = MODULES,
): ModuleWorkers {
  const byName = new Map<string, Worker>();
  const depsMembers: Record<string, unknown> = {};
  for (const module of modules) {
    for (const spec of module.workers) {
      if (byName.has(spec.name)) throw new Error(`two workers named ${spec.name}`);
      const worker = spec.create(options[spec.name] ?? {});
      byName.set(spec.name, worker);
      if (spec.depsKey) depsMembers[spec.depsKey] = worker;
    }
  }
  const workers = [...byName.values()];
  return {
    named<W extends Worker>(name: string): W {
      const worker = byName.get(name);
      if (!worker) throw new Error(`no module declares a worker named ${name}`);
      return worker as W;
    },
    depsMembers: depsMembers as Partial<Deps>,
    start(deps) {
      for (const worker of workers) worker.start(deps);
    },
    async stop() {
      for (const worker of [...workers].reverse()) await worker.stop();
    },
  };
}
