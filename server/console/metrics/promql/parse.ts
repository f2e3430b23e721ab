/**
 * Parser for the subset of PromQL the dashboard widgets use (server/console/metrics/widgets.ts), so the on-box
 * history can answer exactly the queries Prometheus would:
 *
 *   selectors      name{label="v", label!="v", label=~"re", label!~"re"} and name{…}[240s]
 *   functions      rate(v[d]), increase(v[d]), time()
 *   aggregations   sum, max, min, avg, count, topk(k, …), each with `by (…)` / `without (…)` before or after
 *   arithmetic     + - * / between scalars and vectors (one-to-one matching on all labels)
 *
 * Anything else is refused with a message naming what is not supported, rather than evaluated wrongly.
 * Grammar and semantics: https://prometheus.io/docs/prometheus/latest/querying/basics/
 */

export type MatchOp = "=" | "!=" | "=~" | "!~";
export interface Matcher {
  label: string;
  op: MatchOp;
  value: string;
}

export type AggregateOp = "sum" | "max" | "min" | "avg" | "count" | "topk";
export type BinaryOp = "+" | "-" | "*" | "/";

export type Expr =
  | { kind: "number"; value: number }
  | { kind: "selector"; name: string; matchers: Matcher[]; range?: number }
  | { kind: "call"; fn: "rate" | "increase" | "time"; args: Expr[] }
  | { kind: "aggregate"; op: AggregateOp; by?: string[]; without?: string[]; param?: Expr; expr: Expr }
  | { kind: "binary"; op: BinaryOp; lhs: Expr; rhs: Expr };

export class PromQLError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PromQLError";
  }
}

type Token = { type: "ident" | "number" | "string" | "duration" | "punct"; text: string; at: number };

const AGGREGATES = new Set<string>(["sum", "max", "min", "avg", "count", "topk"]);
const FUNCTIONS = new Set<string>(["rate", "increase", "time"]);
const DURATION_UNITS: Record<string, number> = {
  ms: 0.001,
  s: 1,
  m: 60,
  h: 3600,
  d: 86400,
  w: 604800,
  y: 31536000,
};

/** Parses `5m`, `240s`, `1h30m` into seconds. */
export function parseDuration(text: string): number {
  const parts = [...text.matchAll(/(\d+)(ms|s|m|h|d|w|y)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text) {
    throw new PromQLError(`bad duration "${text}"`);
  }
  return parts.reduce((sum, p) => sum + Number(p[1]) * DURATION_UNITS[p[2]], 0);
}

function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const rest = source.slice(i);
    const space = /^\s+/.exec(rest);
    if (space) {
      i += space[0].length;
      continue;
    }
    const previous = tokens.at(-1);
    // Inside [ ] only a duration may appear.
    if (previous?.text === "[") {
      const d = /^[0-9a-z]+/.exec(rest);
      if (!d) throw new PromQLError(`expected a duration at ${i}`);
      tokens.push({ type: "duration", text: d[0], at: i });
      i += d[0].length;
      continue;
    }
    const number = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(rest);
    const ident = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(rest);
    const punct = /^(!=|=~|!~|[{}()[\],=+\-*/])/.exec(rest);
    if (rest[0] === '"' || rest[0] === "'") {
      const quote = rest[0];
      let j = 1;
      let text = "";
      while (j < rest.length && rest[j] !== quote) {
        if (rest[j] === "\\" && j + 1 < rest.length) {
          const next = rest[++j];
          text += next === "n" ? "\n" : next === "t" ? "\t" : next;
        } else text += rest[j];
        j++;
      }
      if (j >= rest.length) throw new PromQLError(`unterminated string at ${i}`);
      tokens.push({ type: "string", text, at: i });
      i += j + 1;
    } else if (number) {
      tokens.push({ type: "number", text: number[0], at: i });
      i += number[0].length;
    } else if (ident) {
      tokens.push({ type: "ident", text: ident[0], at: i });
      i += ident[0].length;
    } else if (punct) {
      tokens.push({ type: "punct", text: punct[0], at: i });
      i += punct[0].length;
    } else throw new PromQLError(`unexpected "${rest[0]}" at ${i}`);
  }
  return tokens;
}

class Parser {
  #i = 0;
  constructor(private readonly tokens: Token[]) {}

  peek(offset = 0): Token | undefined {
    return this.tokens[this.#i + offset];
  }

  next(): Token {
    const token = this.tokens[this.#i++];
    if (!token) throw new PromQLError("unexpected end of query");
    return token;
  }

  accept(text: string): boolean {
    if (this.peek()?.text === text && this.peek()?.type !== "string") {
      this.#i++;
      return true;
    }
    return false;
  }

  expect(text: string): void {
    const token = this.next();
    if (token.text !== text || token.type === "string") {
      throw new PromQLError(`expected "${text}" at ${token.at}, found "${token.text}"`);
    }
  }

  get done(): boolean {
    return this.#i >= this.tokens.length;
  }

  expr(): Expr {
    let lhs = this.term();
    while (this.peek()?.text === "+" || this.peek()?.text === "-") {
      const op = this.next().text as BinaryOp;
      lhs = { kind: "binary", op, lhs, rhs: this.term() };
    }
    return lhs;
  }

  term(): Expr {
    let lhs = this.unary();
    while (this.peek()?.text === "*" || this.peek()?.text === "/") {
      const op = this.next().text as BinaryOp;
      lhs = { kind: "binary", op, lhs, rhs: this.unary() };
    }
    return lhs;
  }

  unary(): Expr {
    if (this.accept("-")) {
      return { kind: "binary", op: "-", lhs: { kind: "number", value: 0 }, rhs: this.unary() };
    }
    if (this.accept("+")) return this.unary();
    return this.primary();
  }

  labelList(): string[] {
    this.expect("(");
    const labels: string[] = [];
    while (!this.accept(")")) {
      const token = this.next();
      if (token.type !== "ident") throw new PromQLError(`expected a label name at ${token.at}`);
      labels.push(token.text);
      if (!this.accept(",")) {
        this.expect(")");
        break;
      }
    }
    return labels;
  }

  grouping(node: Extract<Expr, { kind: "aggregate" }>): void {
    if (this.accept("by")) node.by = this.labelList();
    else if (this.accept("without")) node.without = this.labelList();
  }

  primary(): Expr {
    const token = this.next();
    if (token.type === "number") return { kind: "number", value: Number(token.text) };
    if (token.text === "(" && token.type === "punct") {
      const inner = this.expr();
      this.expect(")");
      return inner;
    }
    if (
      token.type === "ident" && AGGREGATES.has(token.text) &&
      (this.peek()?.text === "(" || this.peek()?.text === "by" || this.peek()?.text === "without")
    ) {
      const node: Extract<Expr, { kind: "aggregate" }> = {
        kind: "aggregate",
        op: token.text as AggregateOp,
        expr: { kind: "number", value: 0 },
      };
      this.grouping(node);
      this.expect("(");
      if (node.op === "topk") {
        node.param = this.expr();
        this.expect(",");
      }
      node.expr = this.expr();
      this.expect(")");
      if (!node.by && !node.without) this.grouping(node);
      return node;
    }
    if (token.type === "ident" && this.peek()?.text === "(") {
      if (!FUNCTIONS.has(token.text)) throw new PromQLError(`function "${token.text}" is not supported`);
      this.expect("(");
      const args: Expr[] = [];
      while (!this.accept(")")) {
        args.push(this.expr());
        if (!this.accept(",")) {
          this.expect(")");
          break;
        }
      }
      const fn = token.text as "rate" | "increase" | "time";
      const arity = fn === "time" ? 0 : 1;
      if (args.length !== arity) throw new PromQLError(`${fn}() takes ${arity} argument(s)`);
      if (fn !== "time" && (args[0].kind !== "selector" || args[0].range === undefined)) {
        throw new PromQLError(`${fn}() needs a range selector such as name[5m]`);
      }
      return { kind: "call", fn, args };
    }
    if (token.type === "ident" || (token.type === "punct" && token.text === "{")) return this.selector(token);
    throw new PromQLError(`unexpected "${token.text}" at ${token.at}`);
  }

  selector(first: Token): Expr {
    const name = first.type === "ident" ? first.text : "";
    if (first.type === "punct") this.#i--; // the brace opens the matchers
    const matchers: Matcher[] = [];
    if (this.accept("{")) {
      while (!this.accept("}")) {
        const label = this.next();
        if (label.type !== "ident") throw new PromQLError(`expected a label name at ${label.at}`);
        const op = this.next();
        if (!["=", "!=", "=~", "!~"].includes(op.text)) {
          throw new PromQLError(`expected a matcher after ${label.text}`);
        }
        const value = this.next();
        if (value.type !== "string") throw new PromQLError(`expected a quoted value for ${label.text}`);
        matchers.push({ label: label.text, op: op.text as MatchOp, value: value.text });
        if (!this.accept(",")) {
          this.expect("}");
          break;
        }
      }
    }
    if (!name && !matchers.some((m) => m.label === "__name__")) {
      throw new PromQLError("a selector needs a metric name");
    }
    const node: Extract<Expr, { kind: "selector" }> = { kind: "selector", name, matchers };
    if (this.accept("[")) {
      node.range = parseDuration(this.next().text);
      this.expect("]");
    }
    return node;
  }
}

/** Parses a query of the supported subset; throws PromQLError with what went wrong. */
export function parsePromQL(source: string): Expr {
  const parser = new Parser(tokenize(source));
  const expr = parser.expr();
  if (!parser.done) throw new PromQLError(`unexpected "${parser.peek()!.text}" at ${parser.peek()!.at}`);
  return expr;
}
