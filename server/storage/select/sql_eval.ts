/**
 * Evaluating S3 Select expressions over one record: CSV records are strings (compared and computed as
 * numbers where the other side is a number, as MinIO infers them), JSON records keep their types. NULL
 * and MISSING make comparisons unknown, which WHERE takes as false. Aggregates accumulate over the rows.
 */
import { selectError } from "./request.ts";
import { AGGREGATES, type Expr, type PathStep, type SelectStatement } from "./sql_parser.ts";

/** A row: CSV values (with header names when the file has them) or a JSON value. */
export type Row = { csv: string[]; names?: string[] } | { json: unknown };

export type Value = unknown;

const invalidType = (message: string) => selectError("InvalidDataType", message);

function asNumber(value: Value): number | null {
  if (typeof value === "number") return value;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "string" && value.trim() !== "" && !Number.isNaN(Number(value))) return Number(value);
  return null;
}

function numeric(value: Value, what: string): number {
  const n = asNumber(value);
  if (n === null) throw invalidType(`${what}: ${JSON.stringify(value)} is not a number`);
  return n;
}

const absent = (v: Value) => v === null || v === undefined;

/** -1, 0, 1, or null when either side is NULL/MISSING; a number meets a numeric string as a number. */
function compare(a: Value, b: Value): number | null {
  if (absent(a) || absent(b)) return null;
  if (typeof a === "number" || typeof b === "number") {
    const x = asNumber(a), y = asNumber(b);
    if (x !== null && y !== null) return x < y ? -1 : x > y ? 1 : 0;
  }
  if (a instanceof Date || b instanceof Date) {
    const x = new Date(a as string).getTime(), y = new Date(b as string).getTime();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  if (typeof a === "boolean" && typeof b === "boolean") return Number(a) - Number(b);
  const x = typeof a === "object" ? JSON.stringify(a) : String(a);
  const y = typeof b === "object" ? JSON.stringify(b) : String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function likeRegex(pattern: string, escape?: string): RegExp {
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (escape && c === escape && i + 1 < pattern.length) {
      source += pattern[++i].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    } else if (c === "%") source += "[\\s\\S]*";
    else if (c === "_") source += "[\\s\\S]";
    else source += c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "u");
}

function step(value: Value, s: PathStep): Value {
  if ("wildcard" in s) return value;
  if ("index" in s) return Array.isArray(value) ? value[s.index] : undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (s.field in record || s.quoted) return record[s.field];
  const key = Object.keys(record).find((k) => k.toLowerCase() === s.field.toLowerCase());
  return key === undefined ? undefined : record[key];
}

/** A column of a CSV row: `_N` by position, else the header name (exact, then ignoring case). */
function csvColumn(row: { csv: string[]; names?: string[] }, s: PathStep): Value {
  if (!("field" in s)) return undefined;
  const positional = /^_(\d+)$/.exec(s.field);
  if (positional && !s.quoted) return row.csv[Number(positional[1]) - 1];
  const names = row.names ?? [];
  let at = names.indexOf(s.field);
  if (at < 0 && !s.quoted) at = names.findIndex((n) => n.toLowerCase() === s.field.toLowerCase());
  return at < 0 ? undefined : row.csv[at];
}

function resolvePath(steps: PathStep[], row: Row, alias: string | undefined): Value {
  let rest = steps;
  const first = steps[0];
  // `s.name` with `FROM S3Object s` (or `S3Object.name`) names a column of the row.
  if (
    steps.length > 1 && "field" in first &&
    (first.field.toLowerCase() === (alias ?? "").toLowerCase() || first.field.toLowerCase() === "s3object")
  ) rest = steps.slice(1);
  if (rest.length === 1 && "wildcard" in rest[0]) return "csv" in row ? row.csv : row.json;
  if ("csv" in row) return rest.length === 1 ? csvColumn(row, rest[0]) : undefined;
  return rest.reduce((value, s) => step(value, s), row.json);
}

function cast(value: Value, type: string): Value {
  if (absent(value)) return value;
  switch (type) {
    case "INT":
    case "INTEGER": {
      const n = asNumber(value);
      if (n === null) throw invalidType(`cannot cast ${JSON.stringify(value)} to INT`);
      return Math.trunc(n);
    }
    case "FLOAT":
    case "DECIMAL":
    case "NUMERIC":
    case "REAL":
    case "DOUBLE":
      return numeric(value, "CAST");
    case "STRING":
    case "VARCHAR":
    case "CHAR":
      return typeof value === "object" ? JSON.stringify(value) : String(value);
    case "BOOL":
    case "BOOLEAN": {
      const text = String(value).toLowerCase();
      if (text === "true" || text === "false") return text === "true";
      throw invalidType(`cannot cast ${JSON.stringify(value)} to BOOL`);
    }
    case "TIMESTAMP": {
      const date = new Date(String(value));
      if (Number.isNaN(date.getTime())) {
        throw invalidType(`cannot cast ${JSON.stringify(value)} to TIMESTAMP`);
      }
      return date;
    }
  }
  throw selectError("ParseSelectFailure", `unsupported CAST type ${type}`);
}

const text = (
  v: Value,
) => (typeof v === "string" ? v : typeof v === "object" ? JSON.stringify(v) : String(v));

function callFunction(e: Extract<Expr, { kind: "call" }>, args: Value[]): Value {
  const [a, b, c] = args;
  switch (e.name) {
    case "LOWER":
      return absent(a) ? a : text(a).toLowerCase();
    case "UPPER":
      return absent(a) ? a : text(a).toUpperCase();
    case "CHAR_LENGTH":
    case "CHARACTER_LENGTH":
      return absent(a) ? a : [...text(a)].length;
    case "TRIM": {
      if (absent(a)) return a;
      const chars = b === undefined ? " " : text(b);
      let s = text(a);
      if (e.trim !== "TRAILING") { while (s && chars.includes(s[0])) s = s.slice(1); }
      if (e.trim !== "LEADING") { while (s && chars.includes(s[s.length - 1])) s = s.slice(0, -1); }
      return s;
    }
    case "SUBSTRING": {
      if (absent(a)) return a;
      const chars = [...text(a)];
      const start = Math.max(1, numeric(b, "SUBSTRING")) - 1;
      const length = c === undefined
        ? chars.length
        : numeric(c, "SUBSTRING") - (start - (numeric(b, "SUBSTRING") - 1));
      return chars.slice(start, start + Math.max(0, length)).join("");
    }
    case "COALESCE":
      return args.find((v) => !absent(v)) ?? null;
    case "NULLIF":
      return compare(a, b) === 0 ? null : a;
    case "UTCNOW":
      return new Date();
    case "TO_TIMESTAMP":
      return cast(a, "TIMESTAMP");
    case "TO_STRING":
      return absent(a) ? a : a instanceof Date ? a.toISOString() : text(a);
    case "EXTRACT": {
      if (absent(a)) return a;
      const date = a instanceof Date ? a : new Date(text(a));
      const parts: Record<string, number> = {
        YEAR: date.getUTCFullYear(),
        MONTH: date.getUTCMonth() + 1,
        DAY: date.getUTCDate(),
        HOUR: date.getUTCHours(),
        MINUTE: date.getUTCMinutes(),
        SECOND: date.getUTCSeconds(),
      };
      if (!(e.part! in parts)) throw selectError("ParseSelectFailure", `unsupported date part ${e.part}`);
      return parts[e.part!];
    }
  }
  throw selectError("ParseSelectFailure", `unsupported function ${e.name}`);
}

/** AND and OR (three-valued), concatenation, arithmetic and comparisons. */
function binary(e: Extract<Expr, { kind: "binary" }>, ev: (x: Expr) => Value): Value {
  const l = ev(e.left), r = ev(e.right);
  if (e.op === "AND" || e.op === "OR") {
    const lb = absent(l) ? null : truthy(l), rb = absent(r) ? null : truthy(r);
    if (e.op === "AND") {
      return lb === false || rb === false ? false : lb === null || rb === null ? null : true;
    }
    return lb === true || rb === true ? true : lb === null || rb === null ? null : false;
  }
  if (e.op === "||") return absent(l) || absent(r) ? null : text(l) + text(r);
  if (["+", "-", "*", "/", "%"].includes(e.op)) {
    if (absent(l) || absent(r)) return null;
    const x = numeric(l, e.op), y = numeric(r, e.op);
    return e.op === "+" ? x + y : e.op === "-" ? x - y : e.op === "*" ? x * y : e.op === "/" ? x / y : x % y;
  }
  const order = compare(l, r);
  if (order === null) return null;
  const results: Record<string, boolean> = {
    "=": order === 0,
    "!=": order !== 0,
    "<": order < 0,
    "<=": order <= 0,
    ">": order > 0,
    ">=": order >= 0,
  };
  return results[e.op];
}

/** Evaluates an expression over a row (aggregates read their accumulated result from `totals`). */
export function evaluate(e: Expr, row: Row, alias: string | undefined, totals?: Map<Expr, Value>): Value {
  const ev = (x: Expr) => evaluate(x, row, alias, totals);
  switch (e.kind) {
    case "literal":
      return e.value;
    case "path":
      return resolvePath(e.steps, row, alias);
    case "unary": {
      const v = ev(e.operand);
      if (e.op === "-") return absent(v) ? v : -numeric(v, "negation");
      return absent(v) ? null : !truthy(v);
    }
    case "binary":
      return binary(e, ev);
    case "between": {
      const v = ev(e.operand);
      const low = compare(v, ev(e.low)), high = compare(v, ev(e.high));
      if (low === null || high === null) return null;
      return (low >= 0 && high <= 0) !== e.negated;
    }
    case "in": {
      const v = ev(e.operand);
      if (absent(v)) return null;
      return e.list.some((item) => compare(v, ev(item)) === 0) !== e.negated;
    }
    case "like": {
      const v = ev(e.operand), pattern = ev(e.pattern);
      if (absent(v) || absent(pattern)) return null;
      const escape = e.escape ? text(ev(e.escape)) : undefined;
      if (escape !== undefined && [...escape].length !== 1) {
        throw selectError(
          "LikeInvalidInputs",
          "Invalid argument given to the LIKE clause in the SQL expression.",
        );
      }
      return likeRegex(text(pattern), escape).test(text(v)) !== e.negated;
    }
    case "is": {
      const v = ev(e.operand);
      const holds = e.what === "NULL"
        ? absent(v)
        : e.what === "MISSING"
        ? v === undefined
        : !absent(v) && truthy(v) === (e.what === "TRUE");
      return holds !== e.negated;
    }
    case "cast":
      return cast(ev(e.operand), e.type);
    case "call":
      if (AGGREGATES.includes(e.name)) return totals?.get(e) ?? null;
      return callFunction(e, e.args.map(ev));
  }
}

function truthy(v: Value): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "string") return v.toLowerCase() === "true";
  return !!v;
}

/** Whether a row passes the WHERE clause (unknown is false). */
export const rowMatches = (statement: SelectStatement, row: Row) =>
  !statement.where || evaluate(statement.where, row, statement.tableAlias) === true;

/** Accumulates COUNT, SUM, AVG, MIN and MAX over the rows, then answers them. */
export class Aggregator {
  readonly #state = new Map<Expr, { count: number; sum: number; best: Value }>();
  constructor(private readonly statement: SelectStatement) {}

  add(row: Row): void {
    for (const { expr } of this.statement.projections ?? []) {
      const call = expr as Extract<Expr, { kind: "call" }>;
      const state = this.#state.get(call) ?? { count: 0, sum: 0, best: undefined };
      this.#state.set(call, state);
      if (call.star) {
        state.count++;
        continue;
      }
      const v = evaluate(call.args[0], row, this.statement.tableAlias);
      if (absent(v)) continue;
      state.count++;
      if (call.name === "SUM" || call.name === "AVG") state.sum += numeric(v, call.name);
      if (call.name === "MIN" || call.name === "MAX") {
        const candidate = asNumber(v) ?? v;
        const order = state.best === undefined ? null : compare(candidate, state.best);
        if (order === null || (call.name === "MIN" ? order < 0 : order > 0)) state.best = candidate;
      }
    }
  }

  totals(): Map<Expr, Value> {
    const out = new Map<Expr, Value>();
    for (const { expr } of this.statement.projections ?? []) {
      const call = expr as Extract<Expr, { kind: "call" }>;
      const s = this.#state.get(call) ?? { count: 0, sum: 0, best: undefined };
      out.set(
        call,
        call.name === "COUNT"
          ? s.count
          : s.count === 0
          ? null
          : call.name === "SUM"
          ? s.sum
          : call.name === "AVG"
          ? s.sum / s.count
          : s.best,
      );
    }
    return out;
  }
}
