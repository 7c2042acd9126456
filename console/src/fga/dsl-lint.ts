/**
 * The CodeMirror linter of the model editor (@codemirror/lint): it runs the server's parser
 * (dsl-diagnostics.ts, loaded on first use) a moment after typing stops and marks each problem in the text.
 */
import { linter, type Diagnostic } from '@codemirror/lint';
import type { Text } from '@codemirror/state';
import type { DslProblem } from './dsl-diagnostics.ts';

let diagnostics: Promise<typeof import('./dsl-diagnostics.ts')> | undefined;

function loadDiagnostics() {
  diagnostics ??= import('./dsl-diagnostics.ts');
  return diagnostics;
}

/** Problem positions (zero-based line and columns) as document offsets, clamped to the text. */
export function toDiagnostic(doc: Text, problem: DslProblem): Diagnostic {
  if (problem.line === undefined) return { from: 0, to: Math.min(doc.length, doc.line(1).to), severity: 'error', message: problem.message };
  const line = doc.line(Math.min(Math.max(problem.line + 1, 1), doc.lines));
  const from = Math.min(line.from + (problem.columnStart ?? 0), line.to);
  const end = problem.columnEnd === undefined ? line.to : line.from + problem.columnEnd;
  return { from, to: Math.max(from, Math.min(end, line.to)), severity: 'error', message: problem.message };
}

/**
 * `onProblems` receives every run's problems, so the page can say "no problems" or count them beside the
 * save button (the lint gutter alone is not announced to a screen reader).
 */
export function dslLinter(onProblems: (problems: DslProblem[]) => void) {
  return linter(
    async (view) => {
      const text = view.state.doc.toString();
      const { diagnoseDsl } = await loadDiagnostics();
      const problems = diagnoseDsl(text);
      onProblems(problems);
      return problems.map((problem) => toDiagnostic(view.state.doc, problem));
    },
    { delay: 400 },
  );
}
