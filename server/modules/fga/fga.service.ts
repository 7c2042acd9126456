/**
 * The FGA service of one server: the store (docs/configuration.md --fga-store), the current model with what
 * is derived from it cached by model id, and a fresh engine per request (so the engine's per-request cache
 * never outlives the request). FGA is off (no service in Deps) on a MongoDB main database without
 * --fga-store, and then every FGA operation answers failed_precondition (docs/errors.md).
 *
 * The current model is read from the store on each request rather than trusted from memory: models are
 * append-only and several instances may share one store (docs/architecture.md#horizontal-scale), so another
 * instance may have written a newer one. Only the derived data of a model id is kept, which never changes.
 */
import { AppError } from '../../kernel/errors.ts';
import type { Deps } from '../../kernel/deps.ts';
import type { AuthorizationModel, FgaStore, StoredModel } from './types.ts';
import { createEngine, type Engine } from './engine/index.ts';

export type FgaEngine = Engine;

/** A stored model with what the operations derive from it. */
export interface LoadedModel {
  readonly id: string;
  readonly dsl: string;
  readonly model: AuthorizationModel;
  /** docs/errors.md#messages-worth-knowing, the agent rule: whether the model declares `type agent`. */
  readonly declaresAgent: boolean;
}

export interface FgaService {
  readonly store: FgaStore;
  /** --fga-allow-unconstrained-agents. */
  readonly allowUnconstrainedAgents: boolean;
  /** The newest model, or undefined on an empty store. */
  currentModel(): Promise<LoadedModel | undefined>;
  /** The newest model; failed_precondition when none has been written yet. */
  requireModel(): Promise<LoadedModel>;
  /** Parses, validates and appends a new model version, which becomes current. */
  writeModel(dsl: string): Promise<LoadedModel>;
  /** A fresh engine over the store for one request. */
  engineFor(model: LoadedModel): FgaEngine;
  close(): Promise<void>;
}

// Deps gets its `fga` member from this module rather than kernel/deps.ts importing it, so the arrow points
// from module to kernel (docs/architecture.md#inside-server). The type names this module's store, model and
// engine, which the kernel has no reason to know; only this module reads the member (requireFga below).
declare module '../../kernel/deps.ts' {
  interface Deps {
    /** The embedded FGA engine's store and model; undefined when FGA is off (MongoDB main database, no --fga-store). */
    readonly fga?: FgaService;
  }
}

export const FGA_OFF_MESSAGE = 'FGA is not enabled: the main database is not SQL and --fga-store is not set';

/** The service, or failed_precondition when FGA is off. */
export function requireFga(deps: Pick<Deps, 'fga'>): FgaService {
  if (!deps.fga) throw AppError.precondition(FGA_OFF_MESSAGE);
  return deps.fga;
}

export function createFgaService(store: FgaStore, options: { allowUnconstrainedAgents: boolean }): FgaService {
  let cached: LoadedModel | undefined;

  function load(stored: StoredModel): LoadedModel {
    if (cached?.id !== stored.id) {
      cached = {
        id: stored.id,
        dsl: stored.dsl,
        model: stored.model,
        declaresAgent: stored.model.type_definitions.some((definition) => definition.type === 'agent'),
      };
    }
    return cached;
  }

  const service: FgaService = {
    store,
    allowUnconstrainedAgents: options.allowUnconstrainedAgents,
    async currentModel() {
      const stored = await store.currentModel();
      return stored ? load(stored) : undefined;
    },
    async requireModel() {
      const current = await service.currentModel();
      if (!current) throw AppError.precondition('no FGA model has been written yet: write one with fga/model first');
      return current;
    },
    async writeModel(dsl) {
      // OpenFGA's parser (ANTLR, about 30 ms and several MiB) loads with the first model write, not at start.
      const { parseModel } = await import('./model/parse-model.ts');
      const model = parseModel(dsl);
      return load(await store.writeModel(dsl, model));
    },
    engineFor(model) {
      return createEngine({ model: model.model, source: store });
    },
    close: () => store.close(),
  };
  return service;
}
