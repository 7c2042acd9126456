/**
 * The operation registry: every operation of the server, in one list. Transports, the proto generator and
 * the parity test all walk this list. It is derived from the module manifests (modules/index.ts MODULES,
 * docs/architecture.md#modules-and-the-registry): a module's operations are served three ways
 * once its manifest lists them.
 */
import type { AnyOperation } from './define.ts';
import { MODULES } from '../modules/index.ts';

export interface Registry {
  readonly all: readonly AnyOperation[];
  byName(name: string): AnyOperation | undefined;
}

export function createRegistry(operations: readonly AnyOperation[]): Registry {
  const byName = new Map<string, AnyOperation>();
  const restKeys = new Set<string>();
  const graphqlNames = new Set<string>();
  for (const op of operations) {
    if (byName.has(op.name)) throw new Error(`duplicate operation ${op.name}`);
    if (graphqlNames.has(op.graphqlName)) throw new Error(`duplicate GraphQL field ${op.graphqlName}`);
    if (op.restRoute) {
      const key = `${op.restRoute.method} ${op.restRoute.path}`;
      if (restKeys.has(key)) throw new Error(`duplicate REST route ${key}`);
      restKeys.add(key);
    }
    byName.set(op.name, op);
    graphqlNames.add(op.graphqlName);
  }
  return { all: operations, byName: (name) => byName.get(name) };
}

export const OPERATIONS: readonly AnyOperation[] = MODULES.flatMap((module) => module.operations);

export const registry = createRegistry(OPERATIONS);
