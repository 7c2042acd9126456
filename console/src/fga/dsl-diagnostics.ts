/**
 * As-you-type problems of an authorization model, found by the server's own parser: OpenFGA's
 * @openfga/syntax-transformer, the same package and version (package-lock) the server's parse-model.ts
 * uses, with the same SLL prediction setting (server/modules/fga/model/sll-prediction.ts, imported, not
 * copied). `validateDSL` is the parse plus OpenFGA's semantic rules, so a model without problems here is
 * one the server's parser accepts; the server stays the authority when the model is saved (its own size,
 * nesting and schema checks, and its message is shown on refusal).
 *
 * This module is loaded on demand (dynamic import from dsl-lint.ts): the parser and its ANTLR runtime are
 * only fetched when the model editor opens.
 */
import { errors as fgaErrors, validator } from '@openfga/syntax-transformer';
import { useSllPrediction } from '../../../server/modules/fga/model/sll-prediction.ts';

try {
  useSllPrediction();
} catch {
  // Only a speed setting: without it the parser gives the same answers, a little slower.
}

export interface DslProblem {
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

/** Every problem the parser and validator report; [] for a valid model. */
export function diagnoseDsl(dsl: string): DslProblem[] {
  if (dsl.trim() === '') return [{ line: 0, columnStart: 0, message: 'The model is empty: it starts with `model` and `schema 1.1`, then the types.' }];
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
