/**
 * The CodeMirror linter of the model editor (@codemirror/lint): a moment after typing stops it asks the
 * server's parser, running in a worker (dsl-checker.ts), and marks each problem in the text.
 */
import { linter, type Diagnostic } from '@codemirror/lint';
import i18next from 'i18next';
import type { Text } from '@codemirror/state';
import type { DslProblem } from './dsl-diagnostics.ts';
import { checkDsl, type DslCheck } from './dsl-checker.ts';

/** A problem in words: the catalogue's for the bounds checked before parsing, else the parser's own. */
export function describeProblem(problem: DslProblem): string {
  const bound = problem.bound;
  if (!bound) return problem.message;
  if (bound.code === 'empty') return i18next.t('fga:model.bounds.empty');
  if (bound.code === 'too-large') return i18next.t('fga:model.bounds.tooLarge', { bytes: bound.bytes, max: bound.max });
  return i18next.t('fga:model.bounds.tooDeep', { max: bound.max });
}

/** Problem positions (zero-based line and columns) as document offsets, clamped to the text. */
export function toDiagnostic(doc: Text, problem: DslProblem): Diagnostic {
  const message = describeProblem(problem);
  if (problem.line === undefined) return { from: 0, to: Math.min(doc.length, doc.line(1).to), severity: 'error', message };
  const line = doc.line(Math.min(Math.max(problem.line + 1, 1), doc.lines));
  const from = Math.min(line.from + (problem.columnStart ?? 0), line.to);
  const end = problem.columnEnd === undefined ? line.to : line.from + problem.columnEnd;
  return { from, to: Math.max(from, Math.min(end, line.to)), severity: 'error', message };
}

/**
 * `onCheck` receives every run's outcome, so the page can say "no problems", list them beside the save
 * button (the lint gutter alone is not announced to a screen reader), or say the check could not run.
 */
export function dslLinter(onCheck: (check: DslCheck) => void) {
  return linter(
    async (view) => {
      const doc = view.state.doc;
      const check = await checkDsl(doc.toString());
      onCheck(check);
      return check.kind === 'checked' ? check.problems.map((problem) => toDiagnostic(doc, problem)) : [];
    },
    { delay: 400 },
  );
}
