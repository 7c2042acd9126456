/**
 * As-you-type problems of an authorization model, found by the server's own parser: OpenFGA's
 * @openfga/syntax-transformer, the same package and version (package-lock) the server's parse-model.ts
 * uses, with the same SLL prediction setting (common/fga-sll-prediction.ts, the very code the server
 * runs). `validateDSL` is the parse plus OpenFGA's semantic rules, so a model without problems here is
 * one the server's parser accepts; the server stays the authority when the model is saved (its own size,
 * nesting and schema checks, and its message is shown on refusal).
 *
 * It runs in the editor's worker (dsl-worker.ts): the parser and its ANTLR runtime are fetched only when
 * the model editor first checks a model, and never run on the page's own thread.
 */
import { errors as fgaErrors, validator } from '@openfga/syntax-transformer';
import { useSllPrediction } from '../../../common/fga-sll-prediction.ts';
// The server's bounds on size and nesting: deeper or larger models are refused before parsing, on the
// server and here alike, which also keeps the parse here linear in the model's size.
import { MAX_MODEL_DSL_BYTES, MAX_MODEL_NESTING } from '../../../ui-shared/contract/constants.ts';


try {
  useSllPrediction();
} catch {
  // Only a speed setting: without it the parser gives the same answers, a little slower.
}

/** The bounds checked before the parser: the page words them from its catalogue (the parser's own text is English). */
export type DslBound = { code: 'empty' } | { code: 'too-large'; bytes: number; max: number } | { code: 'too-deep'; max: number };

export interface DslProblem {
  bound?: DslBound;
  /** Zero-based line, when the parser placed the problem. */
  line?: number;
  /** Zero-based columns on that line; end is exclusive. */
  columnStart?: number;
  columnEnd?: number;
  message: string;
}

/** The parser's errors are zero-based with an inclusive end column; an unplaced one points at nothing. */
function problemOf(err: { msg?: string; message?: string; line?: { start: number }; column?: { start: number; end: number } }): DslProblem {
  const message = (err.msg ?? err.message ?? 'unknown problem').trim();
  if (!err.line) return { message };
  return {
    line: err.line.start,
    columnStart: err.column?.start ?? 0,
    columnEnd: err.column ? Math.max(err.column.end, err.column.start + 1) : undefined,
    message,
  };
}

/** Where the parentheses first nest deeper than the server allows, in one pass (as parse-model.ts checkNesting). */
function tooDeep(dsl: string): DslProblem | undefined {
  let depth = 0;
  let line = 0;
  let column = 0;
  for (let i = 0; i < dsl.length; i += 1) {
    const code = dsl.charCodeAt(i);
    if (code === 10) {
      line += 1;
      column = 0;
      continue;
    }
    if (code === 40 && ++depth > MAX_MODEL_NESTING) {
      return {
        line,
        columnStart: column,
        columnEnd: column + 1,
        bound: { code: 'too-deep', max: MAX_MODEL_NESTING },
        message: `Parentheses nest deeper than ${MAX_MODEL_NESTING} levels.`,
      };
    }
    if (code === 41 && depth > 0) depth -= 1;
    column += 1;
  }
  return undefined;
}

/** Every problem the parser and validator report, after the server's own bounds; [] for a valid model. */
export function diagnoseDsl(dsl: string): DslProblem[] {
  if (dsl.trim() === '') return [{ line: 0, columnStart: 0, bound: { code: 'empty' }, message: 'The model is empty.' }];
  const bytes = new TextEncoder().encode(dsl).length;
  if (bytes > MAX_MODEL_DSL_BYTES) {
    return [{ bound: { code: 'too-large', bytes, max: MAX_MODEL_DSL_BYTES }, message: `The model is larger than ${MAX_MODEL_DSL_BYTES} bytes.` }];
  }
  const deep = tooDeep(dsl);
  if (deep) return [deep];
  try {
    validator.validateDSL(dsl);
    return [];
  } catch (err) {
    if (err instanceof fgaErrors.DSLSyntaxError || err instanceof fgaErrors.ModelValidationError) {
      return err.errors.map(problemOf);
    }
    // The validator itself failed (parse-model.ts names a case with conditions on tuple-to-userset
    // restrictions): say nothing here and let the server's fuller check decide on save.
    return [];
  }
}
