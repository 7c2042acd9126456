/**
 * Highlighting of the OpenFGA DSL in the model editor (schema 1.1 keywords, type names, comments), a
 * CodeMirror stream language: it only colours the text; the parser in dsl-diagnostics.ts judges it.
 */
import { StreamLanguage, type StringStream } from '@codemirror/language';

const KEYWORDS = new Set(['model', 'schema', 'type', 'relations', 'define', 'condition', 'module', 'extend']);
const OPERATORS = new Set(['or', 'and', 'but', 'not', 'from', 'with']);

interface State {
  /** Inside [ ... ]: names there are types. */
  inRestriction: boolean;
  /** The previous word was `type` or `define`: this one is a definition. */
  defining: boolean;
}

export const fgaDsl = StreamLanguage.define<State>({
  name: 'openfga',
  startState: () => ({ inRestriction: false, defining: false }),
  token(stream: StringStream, state: State) {
    if (stream.eatSpace()) return null;
    if (stream.match('#')) {
      stream.skipToEnd();
      return 'comment';
    }
    const ch = stream.peek();
    if (ch === '[') state.inRestriction = true;
    if (ch === ']') state.inRestriction = false;
    if (ch && '[],:()#*'.includes(ch)) {
      stream.next();
      return 'punctuation';
    }
    if (stream.match(/^[0-9]+(\.[0-9]+)?/)) return 'number';
    const word = stream.match(/^[A-Za-z_][A-Za-z0-9_\-/.]*/);
    if (word) {
      const text = (word as RegExpMatchArray)[0];
      if (state.defining) {
        state.defining = false;
        return 'definition';
      }
      if (KEYWORDS.has(text)) {
        state.defining = text === 'type' || text === 'define' || text === 'condition';
        return 'keyword';
      }
      if (OPERATORS.has(text)) return 'operatorKeyword';
      return state.inRestriction ? 'typeName' : 'variableName';
    }
    stream.next();
    return null;
  },
  languageData: { commentTokens: { line: '#' } },
});
