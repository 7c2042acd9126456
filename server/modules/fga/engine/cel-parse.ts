/**
 * A parser for the subset of CEL (github.com/google/cel-spec) that OpenFGA conditions use in practice:
 * literals (int, uint, double, string, bytes-free), identifiers, `! -` unary, `* / %`, `+ -`,
 * `< <= > >= == != in`, `&& ||`, the ternary `?:`, parentheses, lists `[..]`, maps `{k: v}`, member access,
 * indexing, and function or method calls (`timestamp("...")`, `ip.in_cidr(cidr)`, `s.startsWith("a")`).
 * Anything else is a parse error, which the engine reports as a condition it cannot evaluate.
 */

export type Expr =
  | { k: 'lit'; v: unknown }
  | { k: 'id'; name: string }
  | { k: 'unary'; op: '!' | '-'; e: Expr }
  | { k: 'binary'; op: string; l: Expr; r: Expr }
  | { k: 'cond'; c: Expr; t: Expr; f: Expr }
  | { k: 'call'; fn: string; target?: Expr; args: Expr[] }
  | { k: 'member'; e: Expr; name: string }
  | { k: 'index'; e: Expr; i: Expr }
  | { k: 'list'; items: Expr[] }
  | { k: 'map'; entries: Array<[Expr, Expr]> };

type Token = { t: 'num'; v: unknown } | { t: 'str'; v: string } | { t: 'id'; v: string } | { t: 'op'; v: string };

const OPERATORS = ['&&', '||', '==', '!=', '<=', '>=', '<', '>', '!', '+', '-', '*', '/', '%', '(', ')', '[', ']', '{', '}', '.', ',', ':', '?'];

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    const number = /^(\d+\.\d*(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\.\d+|0x[0-9a-fA-F]+u?|\d+u?)/.exec(source.slice(i));
    if (number && /[\d.]/.test(ch)) {
      const text = number[1]!;
      i += text.length;
      if (text.endsWith('u')) tokens.push({ t: 'num', v: BigInt(text.slice(0, -1)) });
      else if (/[.eE]/.test(text) && !text.startsWith('0x')) tokens.push({ t: 'num', v: Number(text) });
      else tokens.push({ t: 'num', v: BigInt(text) });
      continue;
    }
    if (ch === '"' || ch === "'") {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== ch) {
        if (source[j] === '\\' && j + 1 < source.length) {
          const escaped = source[j + 1]!;
          text += ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[escaped] ?? escaped;
          j += 2;
        } else text += source[j++];
      }
      if (j >= source.length) throw new SyntaxError('unterminated string literal');
      tokens.push({ t: 'str', v: text });
      i = j + 1;
      continue;
    }
    const word = /^[A-Za-z_][A-Za-z0-9_]*/.exec(source.slice(i));
    if (word) {
      tokens.push({ t: 'id', v: word[0] });
      i += word[0].length;
      continue;
    }
    const op = OPERATORS.find((candidate) => source.startsWith(candidate, i));
    if (!op) throw new SyntaxError(`unexpected character '${ch}'`);
    tokens.push({ t: 'op', v: op });
    i += op.length;
  }
  return tokens;
}

const BINARY_PRECEDENCE: Record<string, number> = {
  '||': 1, '&&': 2,
  '==': 3, '!=': 3, '<': 3, '<=': 3, '>': 3, '>=': 3, in: 3,
  '+': 4, '-': 4,
  '*': 5, '/': 5, '%': 5,
};

export function parseCel(source: string): Expr {
  const tokens = tokenize(source);
  let pos = 0;
  const peek = () => tokens[pos];
  const isOp = (v: string) => {
    const token = peek();
    return token !== undefined && ((token.t === 'op' && token.v === v) || (token.t === 'id' && v === 'in' && token.v === 'in'));
  };
  const expect = (v: string) => {
    if (!isOp(v)) throw new SyntaxError(`expected '${v}'`);
    pos++;
  };

  function expression(): Expr {
    const condition = binary(1);
    if (!isOp('?')) return condition;
    pos++;
    const whenTrue = expression();
    expect(':');
    return { k: 'cond', c: condition, t: whenTrue, f: expression() };
  }

  function binary(minPrecedence: number): Expr {
    let left = unary();
    for (;;) {
      const token = peek();
      const op = token && (token.t === 'op' || (token.t === 'id' && token.v === 'in')) ? token.v : undefined;
      const precedence = op !== undefined ? BINARY_PRECEDENCE[op] : undefined;
      if (precedence === undefined || precedence < minPrecedence) return left;
      pos++;
      left = { k: 'binary', op: op!, l: left, r: binary(precedence + 1) };
    }
  }

  function unary(): Expr {
    if (isOp('!')) {
      pos++;
      return { k: 'unary', op: '!', e: unary() };
    }
    if (isOp('-')) {
      pos++;
      return { k: 'unary', op: '-', e: unary() };
    }
    return postfix(primary());
  }

  function args(close: string): Expr[] {
    const list: Expr[] = [];
    while (!isOp(close)) {
      list.push(expression());
      if (!isOp(close)) expect(',');
    }
    pos++;
    return list;
  }

  function postfix(base: Expr): Expr {
    for (;;) {
      if (isOp('.')) {
        pos++;
        const name = tokens[pos++];
        if (!name || name.t !== 'id') throw new SyntaxError('expected a name after "."');
        if (isOp('(')) {
          pos++;
          base = { k: 'call', fn: name.v, target: base, args: args(')') };
        } else base = { k: 'member', e: base, name: name.v };
      } else if (isOp('[')) {
        pos++;
        const index = expression();
        expect(']');
        base = { k: 'index', e: base, i: index };
      } else return base;
    }
  }

  function primary(): Expr {
    const token = tokens[pos++];
    if (!token) throw new SyntaxError('unexpected end of expression');
    if (token.t === 'num' || token.t === 'str') return { k: 'lit', v: token.v };
    if (token.t === 'id') {
      if (token.v === 'true' || token.v === 'false') return { k: 'lit', v: token.v === 'true' };
      if (token.v === 'null') return { k: 'lit', v: null };
      if (isOp('(')) {
        pos++;
        return { k: 'call', fn: token.v, args: args(')') };
      }
      return { k: 'id', name: token.v };
    }
    if (token.v === '(') {
      const inner = expression();
      expect(')');
      return inner;
    }
    if (token.v === '[') return { k: 'list', items: args(']') };
    if (token.v === '{') {
      const entries: Array<[Expr, Expr]> = [];
      while (!isOp('}')) {
        const key = expression();
        expect(':');
        entries.push([key, expression()]);
        if (!isOp('}')) expect(',');
      }
      pos++;
      return { k: 'map', entries };
    }
    throw new SyntaxError(`unexpected '${token.v}'`);
  }

  const tree = expression();
  if (pos !== tokens.length) throw new SyntaxError('unexpected input after the expression');
  return tree;
}
