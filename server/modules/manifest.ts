/**
 * What one module contributes to the server, exported from its index.ts
 * (docs/architecture.md#modules-and-the-registry): its MikroORM entities and its registry operations. modules/index.ts lists every
 * manifest once; modules/entities.ts and ops/registry.ts derive their lists from it, so a new module adds one
 * line there instead of one in each list.
 *
 * Only what today's modules contribute is here. A module serves spec-shaped HTTP routes as endpoints
 * (ops/endpoint.ts: plain requests and answers, since nothing below transports/ sees Fastify types), runs its background workers (WorkerSpec), names
 * the webhook events it records and declares the metrics it counts (docs/architecture.md#adding-a-module).
 */
import type { EntitySchema } from '@mikro-orm/core';
import type { AnyOperation, Operation } from '../ops/define.ts';
import type { Endpoint } from '../ops/endpoint.ts';
import type { HookSubscription } from '../kernel/hooks.ts';
import type { Deps } from '../kernel/deps.ts';
import type { MetricDeclaration } from '../kernel/metrics.ts';
import type { EventName } from './events/index.ts';

/**
 * A member a module adds to Deps (declared in the module by declaration merging, as modules/fga does):
 * built by buildApp once the core members exist, in module order, and closed when the app closes, in
 * reverse order. A service may read the services of modules listed before its own.
 */
export interface ServiceSpec<K extends keyof Deps> {
  readonly key: K;
  create(deps: Deps): Deps[K] | Promise<Deps[K]>;
  close?(service: Deps[K]): Promise<void>;
}

/** A service with its key's type erased, so that one list holds them all (as AnyOperation does). */
export interface AnyService {
  readonly key: keyof Deps;
  create(deps: Deps): unknown;
  close?(service: unknown): Promise<void>;
}

export function defineService<K extends keyof Deps>(spec: ServiceSpec<K>): AnyService {
  return spec as unknown as AnyService;
}

/** What buildApp drives of a background worker (docs/architecture.md#background-workers). */
export interface Worker {
  /** Begins polling with the app's Deps; called once the listeners exist. */
  start(deps: Deps): void;
  /** Resolves once nothing is due and nothing runs (tests await it). */
  idle(): Promise<void>;
  /** Ends polling and waits for the work in flight; called after the listeners close, before storage. */
  stop(): Promise<void>;
}

/**
 * A background worker of a module: created by buildApp before Deps (with the options a test overrides, by
 * `name`), started once the listeners exist in module order, stopped in reverse order on close.
 */
export interface WorkerSpec<W extends Worker, O extends object> {
  /** Unique among all modules; the key of its test overrides and of App's accessor (App.outbox). */
  readonly name: string;
  create(options: Partial<O>): W;
  /** The Deps member through which requests reach the worker (Deps.outbox wakes the message outbox). */
  readonly depsKey?: keyof Deps;
}

/** A worker with its option and worker types erased, so that one list holds them all (as AnyService). */
export interface AnyWorker {
  readonly name: string;
  create(options: object): Worker;
  readonly depsKey?: keyof Deps;
}

export function defineWorker<W extends Worker, O extends object>(spec: WorkerSpec<W, O>): AnyWorker {
  return spec as unknown as AnyWorker;
}

export interface ModuleManifest {
  /** The module's folder under server/modules/, or a part of one (accounts-admin). */
  readonly name: string;
  readonly entities: readonly EntitySchema[];
  readonly operations: readonly AnyOperation[];
  /** Its protocol endpoints (ops/endpoint.ts), mounted by transports/http/endpoints.ts. */
  readonly endpoints: readonly Endpoint[];
  /** Its handlers for hooks of the modules below it (kernel/hooks.ts), subscribed by buildApp. */
  readonly hooks: readonly HookSubscription[];
  /** The members it adds to Deps, built by buildApp (ServiceSpec). */
  readonly services: readonly AnyService[];
  /** Its background workers, driven by buildApp (WorkerSpec). */
  readonly workers: readonly AnyWorker[];
  /**
   * The webhook events (docs/events.md) its files record. The closed list stays in modules/events, a
   * foundation that cannot read the manifests above it; test/events/event-declarations.test.ts holds
   * each name to exactly one declaring module, the one that records it.
   */
  readonly events: readonly EventName[];
  /** The metrics it counts through Deps.metrics, registered by transports/http/metrics.ts. */
  readonly metrics: readonly MetricDeclaration[];
}

export interface ModuleSpec {
  readonly name: string;
  readonly entities?: readonly EntitySchema[];
  // Each operation keeps its own input and output schema types here; `any` lets one list hold them all.
  readonly operations?: readonly Operation<any, any>[];
  readonly endpoints?: readonly Endpoint[];
  readonly hooks?: readonly HookSubscription[];
  readonly services?: readonly AnyService[];
  readonly workers?: readonly AnyWorker[];
  readonly events?: readonly EventName[];
  readonly metrics?: readonly MetricDeclaration[];
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
    services: spec.services ?? [],
    workers: spec.workers ?? [],
    events: spec.events ?? [],
    metrics: spec.metrics ?? [],
  };
}
