import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  MAX_FORMULA_LENGTH,
  MAX_NESTING_DEPTH,
  bindLettersToResults,
  evaluate,
  parse,
  print,
  resolveFormula,
  startValue,
  variablesInOrder,
  type BinaryOperator,
  type Expr,
} from '../../src/domain/formula.js';
import { propertyRuns } from '../support/property-runs.js';

function parseOk(text: string): Expr {
  const result = parse(text);
  if (!result.ok) throw new Error(`expected ${JSON.stringify(text)} to parse: ${result.error}`);
  return result.expr;
}

function calc(text: string, bindings: Record<string, number> = {}): number | null {
  return evaluate(parseOk(text), new Map(Object.entries(bindings)));
}

function parseError(text: string): string {
  const result = parse(text);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused`);
  return result.error;
}

describe('parse and evaluate', () => {
  it('applies operator precedence and left associativity', () => {
    expect(calc('2 + 3 * 4')).toBe(14);
    expect(calc('2 * 3 + 4')).toBe(10);
    expect(calc('10 - 4 - 3')).toBe(3);
    expect(calc('24 / 4 / 2')).toBe(3);
    expect(calc('10 - 6 / 2 * 3')).toBe(1);
  });

  it('honours parentheses', () => {
    expect(calc('(2 + 3) * 4')).toBe(20);
    expect(calc('10 - (4 - 3)')).toBe(9);
    expect(calc('((((7))))')).toBe(7);
  });

  it('supports unary minus and plus', () => {
    expect(calc('-3 + 5')).toBe(2);
    expect(calc('4 - -3')).toBe(7);
    expect(calc('-(2 + 3) * 2')).toBe(-10);
    expect(calc('--4')).toBe(4);
    expect(calc('+4 * +2')).toBe(8);
    expect(calc('2 * -A', { A: 3 })).toBe(-6);
  });

  it('reads decimals with a dot or a legacy comma, and exponents', () => {
    expect(calc('9.5 + 0.25')).toBe(9.75);
    expect(calc('10,5 - 0,5')).toBe(10);
    expect(calc('1e-7 * 1E7')).toBe(1);
    expect(calc('2.5e+2')).toBe(250);
  });

  it('accepts a direct value as the whole formula', () => {
    expect(calc('10')).toBe(10);
    expect(calc('  0  ')).toBe(0);
  });

  it('returns null for division by zero and other non-finite results', () => {
    expect(calc('10 / 0')).toBeNull();
    expect(calc('0 / 0')).toBeNull();
    expect(calc('A / (B - B)', { A: 1, B: 2 })).toBeNull();
    expect(calc('1 / (1 / 0)')).toBeNull();
    expect(calc('1e308 * 10')).toBeNull();
    expect(calc('A + 1', { A: Number.NaN })).toBeNull();
    expect(calc('A + 1', { A: Number.POSITIVE_INFINITY })).toBeNull();
  });

  it('returns null when a variable is missing', () => {
    expect(calc('A + B', { A: 1 })).toBeNull();
  });

  it('uses group/team short names as variables', () => {
    expect(calc('D + E - Abz', { D: 4.5, E: 8.2, Abz: 0.3 })).toBeCloseTo(12.4, 12);
    expect(calc('Stufe - AbzugAusf.', { Stufe: 10, 'AbzugAusf.': 1.5 })).toBe(8.5);
    expect(calc('E1+E2', { E1: 1, E2: 2 })).toBe(3);
    expect(calc('Ästhetik_2 * 2', { Ästhetik_2: 1.25 })).toBe(2.5);
  });
});

describe('variables', () => {
  it('lists distinct variables in order of first appearance', () => {
    expect(variablesInOrder(parseOk('B + A - C + B * A'))).toEqual(['B', 'A', 'C']);
    expect(variablesInOrder(parseOk('10'))).toEqual([]);
    expect(variablesInOrder(parseOk('(D + E1) - AbzugAusf.'))).toEqual(['D', 'E1', 'AbzugAusf.']);
  });

  it('binds distinct letters to non-final values in sort order', () => {
    const expr = parseOk('B + A - C');
    const bindings = bindLettersToResults(expr, [1, 2, 3]);
    expect([...bindings]).toEqual([
      ['B', 1],
      ['A', 2],
      ['C', 3],
    ]);
    expect(evaluate(expr, bindings)).toBe(1 + 2 - 3);
  });

  it('binds repeated letters once', () => {
    const expr = parseOk('A + A * B');
    expect(evaluate(expr, bindLettersToResults(expr, [2, 5]))).toBe(12);
  });

  it('leaves letters beyond the available values unbound', () => {
    const expr = parseOk('A + B + C');
    const bindings = bindLettersToResults(expr, [1, 2]);
    expect(bindings.has('C')).toBe(false);
    expect(evaluate(expr, bindings)).toBeNull();
  });

  it('does not bind identifiers other than single capital letters', () => {
    const expr = parseOk('Abz + A');
    const bindings = bindLettersToResults(expr, [1, 2]);
    expect([...bindings]).toEqual([['A', 1]]);
    expect(evaluate(expr, bindings)).toBeNull();
  });
});

describe('startValue', () => {
  it.each<[string | null, number]>([
    ['10 - A', 10],
    [' ((9.5 + A)', 9.5],
    ['A + B', 10],
    [null, 10],
    ['', 10],
    ['8,5 + A', 8.5],
    ['-5 + A', 10],
    ['(A + 3)', 10],
    ['12', 12],
  ])('startValue(%j) is %d', (formula, expected) => {
    expect(startValue(formula)).toBe(expected);
  });
});

describe('resolveFormula', () => {
  it('prefers the formula record, then the discipline formula, then null', () => {
    expect(resolveFormula('A + B', 'C')).toBe('A + B');
    expect(resolveFormula(null, 'C')).toBe('C');
    expect(resolveFormula(undefined, 'C')).toBe('C');
    expect(resolveFormula(null, null)).toBeNull();
    expect(resolveFormula(undefined, undefined)).toBeNull();
  });

  it('treats blank text as absent', () => {
    expect(resolveFormula('   ', 'C')).toBe('C');
    expect(resolveFormula('', '\t ')).toBeNull();
  });
});

describe('malformed formulas', () => {
  it.each(['', '   ', 'A +', '* A', '(A + B', 'A + B)', '()', 'A B', '2A', '1 + + ', 'A,5', '.5', '10 %', 'A = 1', '5.'])(
    'refuses %j with an error instead of throwing',
    (text) => {
      expect(parseError(text)).toMatch(/\S/);
    },
  );

  it('reports position and expectation', () => {
    expect(parseError('A + * B')).toBe("Expected a number, variable or '(' but found '*' at position 5");
    expect(parseError('(A + B')).toBe("Expected ')' but found end of formula at position 7");
    expect(parseError('A B')).toBe('Expected an operator or end of formula but found variable B at position 3');
    expect(parseError('A # B')).toBe('Unexpected character "#" at position 3');
  });

  it('refuses number literals that overflow', () => {
    expect(parseError('1e999')).toMatch(/out of range/);
  });
});

describe('hostile input', () => {
  it('treats prototype names as unknown variables', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const result = parse(name);
      if (result.ok) {
        expect(evaluate(result.expr, new Map())).toBeNull();
      } else {
        expect(result.error).toMatch(/\S/);
      }
    }
    expect(calc('constructor + A', { A: 1 })).toBeNull();
  });

  it('refuses function calls and statements', () => {
    expect(parseError('process.exit()')).toMatch(/Function calls are not supported/);
    expect(parseError('A; drop table')).toMatch(/Unexpected character ";"/);
    expect(parseError('require("fs")')).toMatch(/\S/);
    expect(parseError('`${A}`')).toMatch(/\S/);
  });

  it('limits nesting depth instead of overflowing the stack', () => {
    const deep = `${'('.repeat(10_000)}1${')'.repeat(10_000)}`;
    expect(() => parse(deep)).not.toThrow();
    expect(parse(deep).ok).toBe(false);

    const nested = (depth: number): string => `${'('.repeat(depth)}1${')'.repeat(depth)}`;
    expect(parse(nested(MAX_NESTING_DEPTH)).ok).toBe(true);
    expect(parseError(nested(MAX_NESTING_DEPTH + 1))).toMatch(/nested deeper/);
    expect(parseError(`${'-'.repeat(500)}1`)).toMatch(/nested deeper/);
  });

  it('limits input length', () => {
    const padded = (length: number): string => `1${' '.repeat(length - 1)}`;
    expect(parse(padded(MAX_FORMULA_LENGTH)).ok).toBe(true);
    expect(parseError(padded(MAX_FORMULA_LENGTH + 1))).toMatch(/longer than/);
  });

  it('evaluates a long operator chain within the length limit', () => {
    const chain = Array.from({ length: 1000 }, () => '1').join('+');
    expect(calc(chain)).toBe(1000);
  });
});

describe('print', () => {
  it('prints a canonical form with only the needed parentheses', () => {
    expect(print(parseOk('((A)) + (B * C)'))).toBe('A + B * C');
    expect(print(parseOk('(A + B) * C'))).toBe('(A + B) * C');
    expect(print(parseOk('A - (B - C)'))).toBe('A - (B - C)');
    expect(print(parseOk('A + (B + C)'))).toBe('A + (B + C)');
    expect(print(parseOk('-(A + B)'))).toBe('-(A + B)');
    expect(print(parseOk('- - A'))).toBe('-(-A)');
    expect(print(parseOk('+A'))).toBe('A');
    expect(print(parseOk('10,5'))).toBe('10.5');
  });

  it('prints literals that the parser cannot produce in a parseable way', () => {
    expect(print({ kind: 'num', value: -2.5 })).toBe('(-2.5)');
    expect(Object.is(calc(print({ kind: 'num', value: -0 })), -0)).toBe(true);
    expect(calc(print({ kind: 'num', value: Number.NaN }))).toBeNull();
  });
});

describe('properties', () => {
  const formulaAlphabet = fc.constantFrom(
    ...'0123456789.,+-*/() AZabzÄö_eE:;#'.split(''),
    'Abz',
    'AbzugAusf.',
    '__proto__',
    'constructor',
    '1e',
    '\u0000',
    '\uD800',
  );

  // Skipped by `npm run test:mutation` (PROPERTY_RUNS set): building the binary-string arbitrary
  // costs seconds on every one of Stryker's runs; the hostile-formula examples cover the parser there.
  it.skipIf(process.env.PROPERTY_RUNS !== undefined)('parse never throws on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: formulaAlphabet })), (text) => {
        const result = parse(text);
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: propertyRuns(2000) },
    );
  });

  const names = ['A', 'B', 'C', 'E1', 'Abz', 'AbzugAusf.', 'Ä_2'] as const;
  const bindingsArb = fc
    .tuple(...names.map(() => fc.double({ noNaN: true, noDefaultInfinity: true })))
    .map((values) => new Map(names.map((name, index) => [name, values[index] ?? 0])));
  const operatorArb = fc.constantFrom<BinaryOperator>('+', '-', '*', '/');

  const { expr: exprArb } = fc.letrec<{ expr: Expr }>((tie) => ({
    expr: fc.oneof(
      { depthIdentifier: 'expr', maxDepth: 5 },
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((value): Expr => ({ kind: 'num', value })),
      fc.integer({ min: -20, max: 20 }).map((value): Expr => ({ kind: 'num', value })),
      fc.constantFrom(...names).map((name): Expr => ({ kind: 'var', name })),
      tie('expr').map((operand): Expr => ({ kind: 'neg', operand })),
      fc.tuple(operatorArb, tie('expr'), tie('expr')).map(([op, left, right]): Expr => ({ kind: 'bin', op, left, right })),
    ),
  }));

  it('evaluate(parse(print(e))) equals evaluate(e)', () => {
    fc.assert(
      fc.property(exprArb, bindingsArb, (expr, bindings) => {
        const reparsed = parse(print(expr));
        expect(reparsed.ok).toBe(true);
        if (!reparsed.ok) return;
        expect(Object.is(evaluate(reparsed.expr, bindings), evaluate(expr, bindings))).toBe(true);
        expect(variablesInOrder(reparsed.expr)).toEqual(variablesInOrder(expr));
      }),
      { numRuns: propertyRuns(1000) },
    );
  });

  it('printing is stable once the text has been parsed', () => {
    fc.assert(
      fc.property(exprArb, (expr) => {
        const canonical = print(parseOk(print(expr)));
        expect(print(parseOk(canonical))).toBe(canonical);
      }),
    );
  });
});
