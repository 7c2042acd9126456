/**
 * Evaluates a parsed CEL expression (cel-parse.ts) over typed variables (cel-values.ts). Semantics follow
 * CEL where the subset reaches: `&&`/`||` are commutative about errors (a true `||` side wins over an error
 * on the other; a false `&&` side likewise), int arithmetic is 64-bit-free bigint, mixing int and double
 * in arithmetic is an error ("no such overload"), comparisons across numeric kinds are allowed.
 */
import type { Expr } from './cel-parse.ts';
import { Duration, IpAddress, Timestamp } from './cel-values.ts';

export class CelError extends Error {}

const fail = (message: string): never => {
  throw new CelError(message);
};

function isNumber(value: unknown): value is number | bigint {
  return typeof value === 'number' || typeof value === 'bigint';
}

function equals(a: unknown, b: unknown): boolean {
  if (isNumber(a) && isNumber(b)) return a == b; // CEL heterogeneous numeric equality
  if (a instanceof Timestamp && b instanceof Timestamp) return a.ms === b.ms;
  if (a instanceof Duration && b instanceof Duration) return a.ms === b.ms;
  if (a instanceof IpAddress && b instanceof IpAddress) return a.bytes.join('.') === b.bytes.join('.');
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => equals(item, b[i]));
  if (a instanceof Map && b instanceof Map) return a.size === b.size && [...a].every(([k, v]) => b.has(k) && equals(v, b.get(k)));
  return a === b;
}

function compare(a: unknown, b: unknown): number {
  if (isNumber(a) && isNumber(b)) return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if ((a instanceof Timestamp && b instanceof Timestamp) || (a instanceof Duration && b instanceof Duration)) return Math.sign(a.ms - b.ms);
  return fail('no such overload for comparison');
}

function arithmetic(op: string, a: unknown, b: unknown): unknown {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if ((op === '/' || op === '%') && b === 0n) fail('division by zero');
    return op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : op === '/' ? a / b : a % b;
  }
  if (typeof a === 'number' && typeof b === 'number' && op !== '%') return op === '+' ? a + b : op === '-' ? a - b : op === '*' ? a * b : a / b;
  if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
  if (op === '+' && Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
  if (a instanceof Timestamp && b instanceof Duration) return op === '+' ? new Timestamp(a.ms + b.ms) : op === '-' ? new Timestamp(a.ms - b.ms) : fail('no such overload');
  if (a instanceof Duration && b instanceof Timestamp && op === '+') return new Timestamp(a.ms + b.ms);
  if (a instanceof Timestamp && b instanceof Timestamp && op === '-') return new Duration(a.ms - b.ms);
  if (a instanceof Duration && b instanceof Duration && (op === '+' || op === '-')) return new Duration(op === '+' ? a.ms + b.ms : a.ms - b.ms);
  return fail(`no such overload for '${op}'`);
}

function bool(value: unknown): boolean {
  return typeof value === 'boolean' ? value : fail('expected a bool');
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : fail('expected a string');
}

function size(value: unknown): bigint {
  if (typeof value === 'string') return BigInt([...value].length);
  if (Array.isArray(value)) return BigInt(value.length);
  if (value instanceof Map) return BigInt(value.size);
  return fail('no such overload for size');
}

function call(fn: string, target: unknown, hasTarget: boolean, args: unknown[]): unknown {
  if (hasTarget) {
    switch (fn) {
      case 'in_cidr':
        return target instanceof IpAddress ? target.inCidr(str(args[0])) : fail('in_cidr needs an ipaddress');
      case 'contains':
        return str(target).includes(str(args[0]));
      case 'startsWith':
        return str(target).startsWith(str(args[0]));
      case 'endsWith':
        return str(target).endsWith(str(args[0]));
      case 'matches':
        return new RegExp(str(args[0])).test(str(target));
      case 'size':
        return size(target);
      default:
        return fail(`unknown method '${fn}'`);
    }
  }
  const [first] = args;
  switch (fn) {
    case 'timestamp':
      return first instanceof Timestamp ? first : Timestamp.parse(str(first));
    case 'duration':
      return first instanceof Duration ? first : Duration.parse(str(first));
    case 'ipaddress':
      return new IpAddress(str(first));
    case 'size':
      return size(first);
    case 'int':
      if (typeof first === 'number') return BigInt(Math.trunc(first));
      if (typeof first === 'bigint') return first;
      if (typeof first === 'string' && /^[-+]?\d+$/.test(first)) return BigInt(first);
      if (first instanceof Timestamp) return BigInt(Math.floor(first.ms / 1000));
      return fail('cannot convert to int');
    case 'double':
      return isNumber(first) ? Number(first) : typeof first === 'string' ? Number(first) : fail('cannot convert to double');
    case 'string':
      return typeof first === 'string' ? first : isNumber(first) || typeof first === 'boolean' ? String(first) : fail('cannot convert to string');
    default:
      return fail(`unknown function '${fn}'`);
  }
}

export function evaluate(expr: Expr, vars: ReadonlyMap<string, unknown>): unknown {
  const run = (e: Expr): unknown => evaluate(e, vars);
  switch (expr.k) {
    case 'lit':
      return expr.v;
    case 'id':
      return vars.has(expr.name) ? vars.get(expr.name) : fail(`undeclared reference '${expr.name}'`);
    case 'unary': {
      const value = run(expr.e);
      if (expr.op === '!') return !bool(value);
      return typeof value === 'bigint' ? -value : typeof value === 'number' ? -value : fail('no such overload for -');
    }
    case 'cond':
      return bool(run(expr.c)) ? run(expr.t) : run(expr.f);
    case 'binary': {
      if (expr.op === '&&' || expr.op === '||') {
        // CEL: a decisive side wins even when the other side errors.
        const decisive = expr.op === '||';
        let error: unknown;
        for (const side of [expr.l, expr.r]) {
          try {
            if (bool(run(side)) === decisive) return decisive;
          } catch (err) {
            error = err;
          }
        }
        if (error) throw error;
        return !decisive;
      }
      const l = run(expr.l);
      const r = run(expr.r);
      switch (expr.op) {
        case '==':
          return equals(l, r);
        case '!=':
          return !equals(l, r);
        case '<':
          return compare(l, r) < 0;
        case '<=':
          return compare(l, r) <= 0;
        case '>':
          return compare(l, r) > 0;
        case '>=':
          return compare(l, r) >= 0;
        case 'in':
          if (Array.isArray(r)) return r.some((item) => equals(item, l));
          if (r instanceof Map) return r.has(l);
          return fail("no such overload for 'in'");
        default:
          return arithmetic(expr.op, l, r);
      }
    }
    case 'call':
      return call(expr.fn, expr.target ? run(expr.target) : undefined, expr.target !== undefined, expr.args.map(run));
    case 'member': {
      const target = run(expr.e);
      if (target instanceof Map) return target.has(expr.name) ? target.get(expr.name) : fail(`no such key '${expr.name}'`);
      return fail(`no field '${expr.name}'`);
    }
    case 'index': {
      const target = run(expr.e);
      const index = run(expr.i);
      if (Array.isArray(target) && isNumber(index)) return Number(index) in target ? target[Number(index)] : fail('index out of range');
      if (target instanceof Map) return target.has(index) ? target.get(index) : fail(`no such key '${String(index)}'`);
      return fail('no such overload for index');
    }
    case 'list':
      return expr.items.map(run);
    case 'map':
      return new Map(expr.entries.map(([k, v]) => [run(k), run(v)]));
  }
}
