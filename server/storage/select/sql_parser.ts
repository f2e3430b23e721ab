/**
 * The SQL that S3 Select takes, as MinIO's parser reads it: `SELECT <*|expressions [AS alias]> FROM
 * S3Object[[*]][.path] [alias] [WHERE <condition>] [LIMIT n]`, with comparisons, AND/OR/NOT, BETWEEN, IN,
 * LIKE … ESCAPE, IS [NOT] NULL/MISSING, arithmetic, string concatenation, CAST, functions and aggregates.
 * Failures are ParseSelectFailure, as MinIO's.
 */
import { selectError } from "./request.ts";

export type Expr =
  | { kind: "literal"; value: unknown }
  | { kind: "path"; steps: PathStep[] }
  | { kind: "unary"; op: "-" | "NOT"; operand: Expr }
  | { kind: "binary"; op: string; left: Expr; right: Expr }
  | { kind: "between"; operand: Expr; low: Expr; high: Expr; negated: boolean }
  | { kind: "in"; operand: Expr; list: Expr[]; negated: boolean }
  | { kind: "like"; operand: Expr; pattern: Expr; escape?: Expr; negated: boolean }
  | { kind: "is"; operand: Expr; what: "NULL" | "MISSING" | "TRUE" | "FALSE"; negated: boolean }
  | { kind: "call"; name: string; args: Expr[]; star?: boolean; part?: string; trim?: string }
  | { kind: "cast"; operand: Expr; type: string };

/** A path step: a field (quoted names match exactly), an index, or `[*]`. */
export type PathStep = { field: string; quoted: boolean } | { index: number } | { wildcard: true };

export interface SelectStatement {
  /** Undefined for `SELECT *`. */
  projections?: { expr: Expr; alias?: string }[];
  /** The path after S3Object (JSON only), e.g. `S3Object[*].items`. */
  fromPath: PathStep[];
  tableAlias?: string;
  where?: Expr;
  limit?: number;
}

export const AGGREGATES = ["COUNT", "SUM", "AVG", "MIN", "MAX"];

type Token = { type: "word" | "quoted" | "string" | "number" | "op"; text: string; at: number };

const parseFailure = (message: string) => selectError("ParseSelectFailure", message);

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'" || c === '"') {
      let text = "", j = i + 1;
      for (;;) {
        if (j >= sql.length) {
          throw parseFailure(`unterminated ${c === "'" ? "string" : "identifier"} at ${i}`);
        }
        if (sql[j] === c) {
          if (sql[j + 1] === c) {
            text += c;
            j += 2;
            continue;
          }
          break;
        }
        text += sql[j++];
      }
      tokens.push({ type: c === "'" ? "string" : "quoted", text, at: i });
      i = j + 1;
    } else if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(sql[i + 1] ?? ""))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(sql.slice(i))!;
      tokens.push({ type: "number", text: m[0], at: i });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(sql.slice(i))!;
      tokens.push({ type: "word", text: m[0], at: i });
      i += m[0].length;
    } else {
      const op = ["<=", ">=", "<>", "!=", "||"].find((o) => sql.startsWith(o, i)) ?? c;
      if (!"<=>!|,()*+-/%.[]".includes(op[0]) || op === "!" || op === "|") {
        throw parseFailure(`unexpected character ${JSON.stringify(c)} at ${i}`);
      }
      tokens.push({ type: "op", text: op, at: i });
      i += op.length;
    }
  }
  return tokens;
}

const KEYWORDS = [
  "FROM",
  "WHERE",
  "LIMIT",
  "AS",
  "AND",
  "OR",
  "NOT",
  "BETWEEN",
  "IN",
  "LIKE",
  "IS",
  "ESCAPE",
];

/** A recursive-descent parser over the tokens, one method per level of the grammar. */
class Parser {
  pos = 0;
  constructor(readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.pos + offset];
  }
  isWord(word: string, offset = 0): boolean {
    const token = this.peek(offset);
    return token?.type === "word" && token.text.toUpperCase() === word;
  }
  isOp(op: string): boolean {
    const token = this.peek();
    return token?.type === "op" && token.text === op;
  }
  fail(what: string): never {
    const token = this.peek();
    throw parseFailure(token ? `${what} at "${token.text}" (offset ${token.at})` : `${what} at the end`);
  }
  expectWord(word: string): void {
    if (!this.isWord(word)) this.fail(`expected ${word}`);
    this.pos++;
  }
  expectOp(op: string): void {
    if (!this.isOp(op)) this.fail(`expected "${op}"`);
    this.pos++;
  }

  identifier(): { field: string; quoted: boolean } {
    const token = this.peek();
    if (token?.type === "quoted") return this.pos++, { field: token.text, quoted: true };
    if (token?.type === "word" && !KEYWORDS.includes(token.text.toUpperCase())) {
      return this.pos++, { field: token.text, quoted: false };
    }
    return this.fail("expected a name");
  }

  /** `AS name`, or a bare name that is not a keyword. */
  alias(): string | undefined {
    if (this.isWord("AS")) return this.pos++, this.identifier().field;
    const token = this.peek();
    const bare = token?.type === "quoted" ||
      (token?.type === "word" && !KEYWORDS.includes(token.text.toUpperCase()));
    return bare ? this.identifier().field : undefined;
  }

  pathSteps(): PathStep[] {
    const steps: PathStep[] = [];
    for (;;) {
      if (this.isOp(".")) {
        this.pos++;
        if (this.isOp("*")) {
          this.pos++;
          steps.push({ wildcard: true });
        } else steps.push(this.identifier());
      } else if (this.isOp("[")) {
        this.pos++;
        if (this.isOp("*")) {
          this.pos++;
          steps.push({ wildcard: true });
        } else if (this.peek()?.type === "number") {
          steps.push({ index: Number(this.tokens[this.pos++].text) });
        } else if (this.peek()?.type === "string") {
          steps.push({ field: this.tokens[this.pos++].text, quoted: true });
        } else this.fail("expected an index");
        this.expectOp("]");
      } else return steps;
    }
  }

  callArgs(name: string): Expr {
    this.expectOp("(");
    if (name === "COUNT" && this.isOp("*")) {
      this.pos++;
      this.expectOp(")");
      return { kind: "call", name, args: [], star: true };
    }
    if (name === "CAST") {
      const operand = this.expression();
      this.expectWord("AS");
      const type = this.peek()?.type === "word"
        ? this.tokens[this.pos++].text.toUpperCase()
        : this.fail("expected a type");
      this.expectOp(")");
      return { kind: "cast", operand, type };
    }
    if (name === "EXTRACT") {
      const part = this.peek()?.type === "word"
        ? this.tokens[this.pos++].text.toUpperCase()
        : this.fail("expected a date part");
      this.expectWord("FROM");
      const operand = this.expression();
      this.expectOp(")");
      return { kind: "call", name, args: [operand], part };
    }
    const args: Expr[] = [];
    let trim: string | undefined;
    if (name === "TRIM" && (this.isWord("LEADING") || this.isWord("TRAILING") || this.isWord("BOTH"))) {
      trim = this.tokens[this.pos++].text.toUpperCase();
    }
    if (!this.isOp(")")) {
      if (!(name === "TRIM" && this.isWord("FROM"))) args.push(this.expression());
      // SUBSTRING(s FROM a FOR n) and TRIM([chars] FROM s) take keywords where others take commas.
      if (this.isWord("FROM")) {
        this.pos++;
        args.push(this.expression());
        if (name === "TRIM") args.reverse();
        if (this.isWord("FOR")) this.pos++, args.push(this.expression());
      }
      while (this.isOp(",")) this.pos++, args.push(this.expression());
    }
    this.expectOp(")");
    return { kind: "call", name, args, trim };
  }

  primary(): Expr {
    const token = this.peek() ?? this.fail("expected an expression");
    if (token.type === "number") return this.pos++, { kind: "literal", value: Number(token.text) };
    if (token.type === "string") return this.pos++, { kind: "literal", value: token.text };
    if (this.isOp("(")) {
      this.pos++;
      const inner = this.expression();
      this.expectOp(")");
      return inner;
    }
    if (token.type === "word") {
      const upper = token.text.toUpperCase();
      if (upper === "TRUE" || upper === "FALSE") {
        return this.pos++, { kind: "literal", value: upper === "TRUE" };
      }
      if (upper === "NULL") return this.pos++, { kind: "literal", value: null };
      if (upper === "MISSING") return this.pos++, { kind: "literal", value: undefined };
      if (this.peek(1)?.type === "op" && this.peek(1)!.text === "(") return this.pos++, this.callArgs(upper);
    }
    const first = this.identifier();
    return { kind: "path", steps: [first, ...this.pathSteps()] };
  }

  unary(): Expr {
    if (this.isOp("-")) return this.pos++, { kind: "unary", op: "-", operand: this.unary() };
    if (this.isOp("+")) return this.pos++, this.unary();
    return this.primary();
  }

  binaryLevel(next: () => Expr, ops: string[]): Expr {
    let left = next();
    while (this.peek()?.type === "op" && ops.includes(this.peek()!.text)) {
      const op = this.tokens[this.pos++].text;
      left = { kind: "binary", op, left, right: next() };
    }
    return left;
  }
  multiplicative(): Expr {
    return this.binaryLevel(() => this.unary(), ["*", "/", "%"]);
  }
  additive(): Expr {
    return this.binaryLevel(() => this.multiplicative(), ["+", "-", "||"]);
  }

  predicate(): Expr {
    const operand = this.additive();
    if (this.peek()?.type === "op" && ["=", "!=", "<>", "<", "<=", ">", ">="].includes(this.peek()!.text)) {
      const op = this.tokens[this.pos++].text;
      return { kind: "binary", op: op === "<>" ? "!=" : op, left: operand, right: this.additive() };
    }
    if (this.isWord("IS")) {
      this.pos++;
      const negated = this.isWord("NOT") ? (this.pos++, true) : false;
      const what = ["NULL", "MISSING", "TRUE", "FALSE"].find((w) => this.isWord(w)) ??
        this.fail("expected NULL or MISSING");
      this.pos++;
      return { kind: "is", operand, what: what as "NULL", negated };
    }
    const negated = this.isWord("NOT") &&
      (this.isWord("BETWEEN", 1) || this.isWord("IN", 1) || this.isWord("LIKE", 1));
    if (negated) this.pos++;
    if (this.isWord("BETWEEN")) {
      this.pos++;
      const low = this.additive();
      this.expectWord("AND");
      return { kind: "between", operand, low, high: this.additive(), negated };
    }
    if (this.isWord("IN")) {
      this.pos++;
      this.expectOp("(");
      const list = [this.expression()];
      while (this.isOp(",")) this.pos++, list.push(this.expression());
      this.expectOp(")");
      return { kind: "in", operand, list, negated };
    }
    if (this.isWord("LIKE")) {
      this.pos++;
      const pattern = this.additive();
      const escape = this.isWord("ESCAPE") ? (this.pos++, this.additive()) : undefined;
      return { kind: "like", operand, pattern, escape, negated };
    }
    if (negated) this.fail("expected BETWEEN, IN or LIKE");
    return operand;
  }

  not(): Expr {
    if (this.isWord("NOT")) return this.pos++, { kind: "unary", op: "NOT", operand: this.not() };
    return this.predicate();
  }
  and(): Expr {
    let left = this.not();
    while (this.isWord("AND")) this.pos++, left = { kind: "binary", op: "AND", left, right: this.not() };
    return left;
  }
  expression(): Expr {
    let left = this.and();
    while (this.isWord("OR")) this.pos++, left = { kind: "binary", op: "OR", left, right: this.and() };
    return left;
  }

  statement(): SelectStatement {
    this.expectWord("SELECT");
    let projections: SelectStatement["projections"];
    if (this.isOp("*")) this.pos++;
    else {
      projections = [];
      for (;;) {
        const expr = this.expression();
        projections.push({ expr, alias: this.alias() });
        if (!this.isOp(",")) break;
        this.pos++;
      }
    }
    this.expectWord("FROM");
    const table = this.identifier();
    if (table.field.toLowerCase() !== "s3object") {
      throw selectError("BadTableName", `The table name is not supported: ${table.field}`);
    }
    const fromPath = this.pathSteps();
    const tableAlias = this.alias();
    const where = this.isWord("WHERE") ? (this.pos++, this.expression()) : undefined;
    let limit: number | undefined;
    if (this.isWord("LIMIT")) {
      this.pos++;
      const token = this.peek();
      if (token?.type !== "number" || !/^\d+$/.test(token.text)) this.fail("expected a whole number");
      limit = Number(this.tokens[this.pos++].text);
    }
    if (this.pos < this.tokens.length) this.fail("unexpected input");
    const statement = { projections, fromPath, tableAlias, where, limit };
    checkAggregates(statement);
    return statement;
  }
}

/** Parses one SELECT statement. */
export function parseSelect(sql: string): SelectStatement {
  return new Parser(tokenize(sql)).statement();
}

const isAggregate = (e: Expr) => e.kind === "call" && AGGREGATES.includes(e.name);

function containsAggregate(e: Expr): boolean {
  switch (e.kind) {
    case "call":
      return isAggregate(e) || e.args.some(containsAggregate);
    case "unary":
      return containsAggregate(e.operand);
    case "binary":
      return containsAggregate(e.left) || containsAggregate(e.right);
    case "cast":
    case "is":
      return containsAggregate(e.operand);
    case "between":
      return [e.operand, e.low, e.high].some(containsAggregate);
    case "in":
      return [e.operand, ...e.list].some(containsAggregate);
    case "like":
      return [e.operand, e.pattern].some(containsAggregate);
    default:
      return false;
  }
}

/** Whether the statement aggregates (every projection must then be an aggregate, MinIO's rule). */
export function isAggregation(statement: SelectStatement): boolean {
  return !!statement.projections?.some((p) => containsAggregate(p.expr));
}

function checkAggregates(statement: SelectStatement): void {
  const invalid = (message: string) => selectError("InvalidQuery", message);
  if (statement.where && containsAggregate(statement.where)) {
    throw invalid("Where clause error: WHERE clause cannot have an aggregation");
  }
  if (isAggregation(statement) && !statement.projections!.every((p) => isAggregate(p.expr))) {
    throw invalid("Select clause error: a query that aggregates may only select aggregates");
  }
}
