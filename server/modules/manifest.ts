/**
 * What one module contributes to the server, exported from its index.ts
 * (docs/architecture.md#modules-and-the-registry): its MikroORM entities and its registry operations. modules/index.ts lists every
 * manifest once; modules/entities.ts and ops/registry.ts derive their lists from it, so a new module adds one
 * line there instead of one in each list.
 *
 * Only what today's modules contribute is here. A module serves spec-shaped HTTP routes as endpoints
 * (ops/endpoint.ts: plain requests and answers, since nothing below transports/ sees Fastify types; those
 * not yet moved still live in transports/http/protocol), and the one background worker, the message outbox, is also a member of Deps and of App, so buildApp() wires it.
 */
import type { EntitySchema } from '@mikro-orm/core';
import type { AnyOperation, Operation } from '../ops/define.ts';
import type { Endpoint } from '../ops/endpoint.ts';
import type { HookSubscription } from '../kernel/hooks.ts';

export interface ModuleManifest {
  /** The module's folder under server/modules/, or a part of one (accounts-admin). */
  readonly name: string;
  readonly entities: readonly EntitySchema[];
  readonly operations: readonly AnyOperation[];
  /** Its protocol endpoints (ops/endpoint.ts), mounted by transports/http/endpoints.ts. */
  readonly endpoints: readonly Endpoint[];
  /** Its handlers for hooks of the modules below it (kernel/hooks.ts), subscribed by buildApp. */
  readonly hooks: readonly HookSubscription[];
}

export interface ModuleSpec {
  readonly name: string;
  readonly entities?: readonly EntitySchema[];
  // Each operation keeps its own input and output schema types here; `any` lets one list hold them all.
  readonly operations?: readonly Operation<any, any>[];
  readonly endpoints?: readonly Endpoint[];
  readonly hooks?: readonly HookSubscription[];
}

/**
 * The manifest of one module. Operations are stored with their schemas erased to TObject (ops/define.ts
 * AnyOperation), the one cast the hand-written registry list used to make.
 */
export function defineModule(spec: ModuleSpec): ModuleManifest {
  return {
    name: spec.name,
    entities: spec.entities ?? [],
    operations: (spec.operations ?? []) as unknown as readonly AnyOperation[],
    endpoints: spec.endpoints ?? [],
    hooks: spec.hooks ?? [],
  };
}
