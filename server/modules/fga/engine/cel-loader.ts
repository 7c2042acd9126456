/**
 * The CEL evaluator of conditional tuples (cel-program.ts, cel-context.ts, and with them @bufbuild/cel, its
 * RE2 and the protobuf runtime), loaded by the first condition compiled or context checked instead of at
 * start: a server whose models have no conditions never needs it, and evaluating it cost every start about
 * 280 KB of bundled modules (docs/architecture.md#the-single-executable).
 *
 * Synchronous, because the engine's checks are. In the bundle `require` is esbuild's own, which evaluates
 * the bundled module on its first call (nothing is read from disk, so the single executable needs no file);
 * run from source, where an ES module has no `require`, Node's require of an ES module loads it.
 */
import { createRequire } from 'node:module';

type CelProgram = typeof import('./cel-program.ts');
type CelContext = typeof import('./cel-context.ts');

let loaded: { program: CelProgram; context: CelContext } | undefined;

export function celRuntime(): { program: CelProgram; context: CelContext } {
  if (!loaded) {
    if (typeof require === 'function') {
      loaded = { program: require('./cel-program.ts') as CelProgram, context: require('./cel-context.ts') as CelContext };
    } else {
      const load = createRequire(import.meta.url);
      loaded = { program: load('./cel-program.ts') as CelProgram, context: load('./cel-context.ts') as CelContext };
    }
  }
  return loaded;
}
