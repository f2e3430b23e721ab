/**
 * The rows S3 Select answers, serialized as the request's OutputSerialization says: CSV (quoted as needed
 * or always, with its delimiters) or JSON objects, each followed by the record delimiter.
 */
import type { SelectRequest } from "./request.ts";
import type { Value } from "./sql_eval.ts";

/** An output row: column names (aliases, last path components or `_N`) and their values, in order. */
export type OutputRow = [string, Value][];

function scalarText(value: Value): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

function jsonValue(value: Value): unknown {
  if (value instanceof Date) return value.toISOString();
  return value === undefined ? null : value;
}

/** Serializes rows for the request's output format. */
export function rowWriter(output: SelectRequest["output"]): (row: OutputRow) => string {
  if (output.format === "JSON") {
    return (row) => {
      const object: Record<string, unknown> = {};
      for (const [name, value] of row) if (value !== undefined) object[name] = jsonValue(value);
      return JSON.stringify(object) + output.recordDelimiter;
    };
  }
  const { fieldDelimiter, recordDelimiter, quoteCharacter: q, quoteEscapeCharacter: esc, quoteFields } =
    output.csv;
  const needsQuotes = (text: string) =>
    text.includes(fieldDelimiter) || text.includes(q) || text.includes("\n") || text.includes("\r") ||
    text.includes(recordDelimiter);
  return (row) =>
    row.map(([, value]) => {
      const text = scalarText(value);
      if (quoteFields !== "ALWAYS" && !needsQuotes(text)) return text;
      return q + text.replaceAll(q, esc + q) + q;
    }).join(fieldDelimiter) + recordDelimiter;
}
