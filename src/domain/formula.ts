/**
 * Formula engine for jury results: tokenizer, precedence-climbing parser, evaluator and printer.
 *
 * Formulas are user data coming from a shared legacy database, so nothing here executes code:
 * the grammar only knows numbers, variables, `+ - * /`, unary signs and parentheses, and
 * variables are looked up in a `Map`, so names like `constructor` or `__proto__` are just
 * unknown variables.
 *
 * Lexical decisions:
 * - Numbers are `digits[(. or ,)digits][(e or E)[+ or -]digits]`. The comma is accepted as a
 *   decimal separator because legacy German data may contain `10,5`; the grammar has no other use
 *   for a comma (no function arguments), so this is unambiguous. The exponent form exists so that
 *   `print` can emit any finite double with `String(n)` and stay parseable. Leading-dot numbers
 *   (`.5`) are not accepted.
 * - Identifiers are greedy `letter (letter | digit | _ | .)*`, because field short names such as
 *   `AbzugAusf.` end in a dot. Letters are Unicode letters (German umlauts included).
 * - There is no implicit multiplication: `2A` is a parse error.
 */

export type BinaryOperator = '+' | '-' | '*' | '/';

export type Expr =
  | { readonly kind: 'num'; readonly value: number }
  | { readonly kind: 'var'; readonly name: string }
  | { readonly kind: 'neg'; readonly operand: Expr }
  | { readonly kind: 'bin'; readonly op: BinaryOperator; readonly left: Expr; readonly right: Expr };

export type ParseResult = { readonly ok: true; readonly expr: Expr } | { readonly ok: false; readonly error: string };

export const MAX_FORMULA_LENGTH = 2000;
export const MAX_NESTING_DEPTH = 64;

const DEFAULT_START_VALUE = 10.0;

const NUMBER_PATTERN = /(\d+)(?:[.,]\d+)?(?:[eE][+-]?\d+)?/y;
const IDENTIFIER_PATTERN = /\p{L}[\p{L}\p{M}0-9_.]*/uy;
const WHITESPACE_PATTERN = /\s+/y;
const INDIVIDUAL_VARIABLE_PATTERN = /^[A-Z]$/;

type Token =
  | { readonly type: 'num'; readonly value: number; readonly text: string; readonly pos: number }
  | { readonly type: 'ident'; readonly name: string; readonly pos: number }
  | { readonly type: 'op'; readonly op: BinaryOperator; readonly pos: number }
  | { readonly type: '(' | ')'; readonly pos: number }
  | { readonly type: 'end'; readonly pos: number };

// Internal control flow only: `parse` catches it and turns it into an error result.
class FormulaSyntaxError extends Error {}

/** Positions in messages are 1-based character columns. */
function fail(message: string, pos: number): never {
  throw new FormulaSyntaxError(`${message} at position ${pos + 1}`);
}

function matchAt(pattern: RegExp, text: string, pos: number): string | null {
  pattern.lastIndex = pos;
  return pattern.exec(text)?.[0] ?? null;
}

function numberFromText(text: string): number {
  return Number(text.replace(',', '.'));
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < text.length) {
    const space = matchAt(WHITESPACE_PATTERN, text, pos);
    if (space !== null) {
      pos += space.length;
      continue;
    }
    const ch = text[pos];
    if (ch === '+' || ch === '-' || ch === '*' || ch === '/') {
      tokens.push({ type: 'op', op: ch, pos });
      pos += 1;
      continue;
    }
    if (ch === '(' || ch === ')') {
      tokens.push({ type: ch, pos });
      pos += 1;
      continue;
    }
    const numberText = matchAt(NUMBER_PATTERN, text, pos);
    if (numberText !== null) {
      const value = numberFromText(numberText);
      if (!Number.isFinite(value)) fail(`Number ${numberText} is out of range`, pos);
      tokens.push({ type: 'num', value, text: numberText, pos });
      pos += numberText.length;
      continue;
    }
    const name = matchAt(IDENTIFIER_PATTERN, text, pos);
    if (name !== null) {
      tokens.push({ type: 'ident', name, pos });
      pos += name.length;
      continue;
    }
    const codePoint = text.codePointAt(pos) ?? 0;
    fail(`Unexpected character ${JSON.stringify(String.fromCodePoint(codePoint))}`, pos);
  }
  tokens.push({ type: 'end', pos: text.length });
  return tokens;
}

function describe(token: Token): string {
  switch (token.type) {
    case 'num':
      return `number ${token.text}`;
    case 'ident':
      return `variable ${token.name}`;
    case 'op':
      return `'${token.op}'`;
    case '(':
    case ')':
      return `'${token.type}'`;
    case 'end':
      return 'end of formula';
  }
}

const BINARY_PRECEDENCE: Readonly<Record<BinaryOperator, number>> = { '+': 1, '-': 1, '*': 2, '/': 2 };

class Parser {
  private index = 0;
  private depth = 0;

  constructor(private readonly tokens: readonly Token[]) {}

  parseFormula(): Expr {
    const expr = this.parseBinary(1);
    const next = this.peek();
    if (next.type !== 'end') fail(`Expected an operator or end of formula but found ${describe(next)}`, next.pos);
    return expr;
  }

  private peek(): Token {
    // The token list always ends with an 'end' token and the parser never advances past it.
    return this.tokens[this.index] ?? { type: 'end', pos: 0 };
  }

  // Precedence climbing keeps operator chains iterative, so only parentheses and unary signs
  // recurse; `enter` bounds those to keep hostile input from exhausting the stack.
  private parseBinary(minPrecedence: number): Expr {
    let left = this.parseUnary();
    for (;;) {
      const token = this.peek();
      if (token.type !== 'op' || BINARY_PRECEDENCE[token.op] < minPrecedence) return left;
      this.index += 1;
      const right = this.parseBinary(BINARY_PRECEDENCE[token.op] + 1);
      left = { kind: 'bin', op: token.op, left, right };
    }
  }

  private parseUnary(): Expr {
    const token = this.peek();
    if (token.type === 'op' && (token.op === '-' || token.op === '+')) {
      this.enter(token.pos);
      this.index += 1;
      const operand = this.parseUnary();
      this.depth -= 1;
      // Unary plus is the identity, so it leaves no trace in the tree.
      return token.op === '-' ? { kind: 'neg', operand } : operand;
    }
    return this.parsePrimary();
  }

  private parsePrimary(): Expr {
    const token = this.peek();
    switch (token.type) {
      case 'num':
        this.index += 1;
        return { kind: 'num', value: token.value };
      case 'ident': {
        this.index += 1;
        const next = this.peek();
        if (next.type === '(') fail(`Function calls are not supported: ${token.name}(`, next.pos);
        return { kind: 'var', name: token.name };
      }
      case '(': {
        this.enter(token.pos);
        this.index += 1;
        const inner = this.parseBinary(1);
        const close = this.peek();
        if (close.type !== ')') fail(`Expected ')' but found ${describe(close)}`, close.pos);
        this.index += 1;
        this.depth -= 1;
        return inner;
      }
      default:
        return fail(`Expected a number, variable or '(' but found ${describe(token)}`, token.pos);
    }
  }

  private enter(pos: number): void {
    this.depth += 1;
    if (this.depth > MAX_NESTING_DEPTH) fail(`Formula is nested deeper than ${MAX_NESTING_DEPTH} levels`, pos);
  }
}

/** Parses a formula; never throws. */
export function parse(text: string): ParseResult {
  if (text.length > MAX_FORMULA_LENGTH) {
    return { ok: false, error: `Formula is longer than ${MAX_FORMULA_LENGTH} characters` };
  }
  if (text.trim() === '') return { ok: false, error: 'Formula is empty' };
  try {
    return { ok: true, expr: new Parser(tokenize(text)).parseFormula() };
  } catch (error) {
    if (error instanceof FormulaSyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}

/**
 * Returns null when a variable is unbound or any intermediate result is not finite, so a
 * division by zero never turns into a score through later operations (e.g. `1 / (1 / 0)`).
 */
export function evaluate(expr: Expr, bindings: ReadonlyMap<string, number>): number | null {
  switch (expr.kind) {
    case 'num':
      return Number.isFinite(expr.value) ? expr.value : null;
    case 'var': {
      const value = bindings.get(expr.name);
      return value !== undefined && Number.isFinite(value) ? value : null;
    }
    case 'neg': {
      const operand = evaluate(expr.operand, bindings);
      return operand === null ? null : -operand;
    }
    case 'bin': {
      const left = evaluate(expr.left, bindings);
      if (left === null) return null;
      const right = evaluate(expr.right, bindings);
      if (right === null) return null;
      const result = applyOperator(expr.op, left, right);
      return Number.isFinite(result) ? result : null;
    }
  }
}

function applyOperator(op: BinaryOperator, left: number, right: number): number {
  switch (op) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return left / right;
  }
}

/** Distinct variable names in order of first appearance in the source text. */
export function variablesInOrder(expr: Expr): string[] {
  const seen = new Set<string>();
  const visit = (node: Expr): void => {
    switch (node.kind) {
      case 'num':
        return;
      case 'var':
        seen.add(node.name);
        return;
      case 'neg':
        visit(node.operand);
        return;
      case 'bin':
        visit(node.left);
        visit(node.right);
        return;
    }
  };
  visit(expr);
  return [...seen];
}

/**
 * Individual scoring: the distinct letters A-Z, in order of first appearance, take the non-final
 * jury results in ascending sort order. Other identifiers are never bound here, because individual
 * formulas only know single capital letters; a formula using them therefore evaluates to null.
 */
export function bindLettersToResults(expr: Expr, nonFinalValuesInSortOrder: readonly number[]): Map<string, number> {
  const bindings = new Map<string, number>();
  const letters = variablesInOrder(expr).filter((name) => INDIVIDUAL_VARIABLE_PATTERN.test(name));
  letters.forEach((letter, index) => {
    const value = nonFinalValuesInSortOrder[index];
    if (value !== undefined) bindings.set(letter, value);
  });
  return bindings;
}

/**
 * The literal number right at the start of the formula (after whitespace and opening parentheses
 * only, so `-5 + A` has none); otherwise 10.0.
 */
export function startValue(formulaText: string | null): number {
  if (formulaText === null) return DEFAULT_START_VALUE;
  const prefix = /^[\s(]*/.exec(formulaText)?.[0] ?? '';
  const numberText = matchAt(NUMBER_PATTERN, formulaText, prefix.length);
  if (numberText === null) return DEFAULT_START_VALUE;
  const value = numberFromText(numberText);
  return Number.isFinite(value) ? value : DEFAULT_START_VALUE;
}

/** The formula record's expression wins over the discipline's own; blank text counts as absent. */
export function resolveFormula(recordFormula: string | null | undefined, disciplineFormula: string | null | undefined): string | null {
  for (const candidate of [recordFormula, disciplineFormula]) {
    const trimmed = candidate?.trim();
    if (trimmed) return trimmed;
  }
  return null;
}

const ATOM_PRECEDENCE = 3;

function precedence(expr: Expr): number {
  return expr.kind === 'bin' ? BINARY_PRECEDENCE[expr.op] : ATOM_PRECEDENCE;
}

/**
 * Canonical text with only the parentheses the tree needs. Right operands of equal precedence keep
 * theirs (`A - (B - C)`, and `A + (B + C)` because float addition is not associative), so parsing
 * the output evaluates bit-for-bit like the original tree.
 */
export function print(expr: Expr): string {
  switch (expr.kind) {
    case 'num':
      // Non-finite literals only come from hand-built trees; `0/0` evaluates to null just like them.
      if (!Number.isFinite(expr.value)) return '(0/0)';
      return expr.value < 0 || Object.is(expr.value, -0) ? `(-${String(-expr.value)})` : String(expr.value);
    case 'var':
      return expr.name;
    case 'neg': {
      const operand = print(expr.operand);
      return expr.operand.kind === 'bin' || expr.operand.kind === 'neg' ? `-(${operand})` : `-${operand}`;
    }
    case 'bin': {
      const own = BINARY_PRECEDENCE[expr.op];
      const left = print(expr.left);
      const right = print(expr.right);
      const leftText = precedence(expr.left) < own ? `(${left})` : left;
      const rightText = precedence(expr.right) <= own ? `(${right})` : right;
      return `${leftText} ${expr.op} ${rightText}`;
    }
  }
}
