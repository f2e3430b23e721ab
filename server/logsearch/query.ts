/**
 * The Log Search API's query parameters (minio-protocol-2 §3.4, §3.5): `q=reqinfo` (request-info rows) or
 * `q=raw` (the stored audit entries), time bounds or `last=<duration>`, order, page size and number,
 * `export=csv|ndjson` (every matching row, no paging), and `fp=key:pattern` filters. Patterns: `*` any
 * characters, `.` one character, a backslash escapes the next character (so `\.` is a dot); a pattern
 * without wildcards must match exactly.
 * Matching is case-sensitive. Values only ever become bound parameters, never SQL text.
 */
import { parseGoDuration } from "../lib/http/duration.ts";

export const FILTER_COLUMNS = [
  "bucket",
  "object",
  "api_name",
  "request_id",
  "user_agent",
  "response_status",
  "access_key",
] as const;
export type FilterColumn = typeof FILTER_COLUMNS[number];

/** A filter as the stores apply it: equality, or LIKE with `\` as the escape character. */
export type Filter = { column: FilterColumn; op: "="; value: string } | {
  column: FilterColumn;
  op: "LIKE";
  pattern: string;
};

export interface LogQuery {
  /** `q=raw`: the stored entries rather than request-info rows. */
  raw: boolean;
  /** `export=`: every matching row as a download, instead of one page. */
  export: "csv" | "ndjson" | null;
  filters: Filter[];
  /** Epoch microseconds, inclusive. */
  timeStart: number | null;
  /** Epoch microseconds, exclusive. */
  timeEnd: number | null;
  descending: boolean;
  pageSize: number;
  pageNumber: number;
}

export const MIN_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 10_000;

export class QueryError extends Error {}

/** Translates a pattern: LIKE when it has an unescaped wildcard, else equality with escapes removed. */
export function patternFilter(column: FilterColumn, pattern: string): Filter {
  let like = "";
  let literal = "";
  let wild = false;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\" && i + 1 < pattern.length) {
      const next = pattern[++i];
      literal += next;
      like += /[%_\\]/.test(next) ? `\\${next}` : next;
    } else if (ch === "*") {
      wild = true;
      like += "%";
    } else if (ch === ".") {
      wild = true;
      like += "_";
    } else {
      literal += ch;
      like += /[%_\\]/.test(ch) ? `\\${ch}` : ch;
    }
  }
  return wild ? { column, op: "LIKE", pattern: like } : { column, op: "=", value: literal };
}

/** RFC 3339 (with or without fractions) or YYYY-MM-DD, to epoch microseconds. */
export function parseTime(text: string): number | null {
  const date = /^\d{4}-\d\d-\d\d$/.test(text) ? `${text}T00:00:00Z` : text;
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|[+-]\d\d:\d\d)$/i.exec(date);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}${m[3]}`);
  if (Number.isNaN(ms)) return null;
  const fraction = (m[2] ?? ".").slice(1).padEnd(6, "0").slice(0, 6);
  return ms * 1000 + Number(fraction);
}

/** Parses and validates; throws QueryError with the service's message. `now` is epoch ms (for `last`). */
export function parseLogQuery(params: URLSearchParams, now = Date.now()): LogQuery {
  const q = params.get("q") ?? "";
  if (q !== "reqinfo" && q !== "raw") throw new QueryError(`Invalid query name: ${q}`);
  if (params.has("timeAsc") && params.has("timeDesc")) {
    throw new QueryError("both timeasc and timedesc may not be specified");
  }
  const exportFormat = params.get("export");
  if (exportFormat !== null && exportFormat !== "csv" && exportFormat !== "ndjson") {
    throw new QueryError(`Invalid export format: ${exportFormat} (csv or ndjson)`);
  }
  if (exportFormat !== null && ["pageSize", "pageStart", "pageNo"].some((p) => params.has(p))) {
    throw new QueryError("pageSize and pageStart may not be given with export");
  }
  const last = params.get("last");
  let lastStart: number | null = null;
  if (last !== null) {
    if (params.get("timeStart") || params.get("timeEnd")) {
      throw new QueryError("last may not be given with timeStart or timeEnd");
    }
    const ns = parseGoDuration(last);
    const ms = ns === null || ns < 0 ? null : ns / 1e6;
    if (ms === null) throw new QueryError(`last is not a duration such as 24h or 90m: ${last}`);
    lastStart = Math.round((now - ms) * 1000);
  }
  const time = (name: string) => {
    const text = params.get(name);
    if (text === null || text === "") return null;
    const value = parseTime(text);
    if (value === null) throw new QueryError(`${name} is not an RFC 3339 time or a date: ${text}`);
    return value;
  };
  const integer = (name: string, fallback: number) => {
    const text = params.get(name);
    if (text === null || text === "") return fallback;
    if (!/^\d+$/.test(text)) throw new QueryError(`${name} must be a whole number: ${text}`);
    return Number(text);
  };
  const pageSize = integer("pageSize", MIN_PAGE_SIZE);
  if (pageSize < MIN_PAGE_SIZE || pageSize > MAX_PAGE_SIZE) {
    throw new QueryError(`pageSize must be between ${MIN_PAGE_SIZE} and ${MAX_PAGE_SIZE}`);
  }
  // pageStart is the service's name; the console sends pageNo (which the original service ignored).
  const pageNumber = params.has("pageStart") ? integer("pageStart", 0) : integer("pageNo", 0);
  const byColumn = new Map<FilterColumn, Filter>();
  for (const fp of params.getAll("fp")) {
    const colon = fp.indexOf(":");
    if (colon < 0) throw new QueryError(`Invalid filter parameter: ${fp}`);
    const key = fp.slice(0, colon) as FilterColumn;
    if (!FILTER_COLUMNS.includes(key)) throw new QueryError(`Unknown filter param: ${key}`);
    byColumn.set(key, patternFilter(key, fp.slice(colon + 1)));
  }
  return {
    raw: q === "raw",
    export: exportFormat,
    filters: [...byColumn.values()],
    timeStart: lastStart ?? time("timeStart"),
    timeEnd: time("timeEnd"),
    descending: !params.has("timeAsc"),
    pageSize,
    pageNumber,
  };
}
