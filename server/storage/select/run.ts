/**
 * A SELECT statement over rows: the FROM path (JSON), the WHERE filter, projections or aggregates, LIMIT;
 * output columns are named as MinIO names them (the alias, else the last path component, else `_N`).
 */
import { selectError } from "./request.ts";
import { Aggregator, evaluate, type Row, rowMatches } from "./sql_eval.ts";
import { isAggregation, type PathStep, type SelectStatement } from "./sql_parser.ts";
import type { OutputRow } from "./output.ts";

const asRow = (value: unknown): Row => ({
  json: value !== null && typeof value === "object" && !Array.isArray(value) ? value : { _1: value },
});

/** The rows a record stands for after `FROM S3Object[*].path` (a list gives one row per element). */
function fromRows(path: PathStep[], row: Row): Row[] {
  if (path.length === 0) return [row];
  if (!("json" in row)) throw selectError("DataSourcePathUnsupported", "Data source: path not supported");
  let value: unknown = row.json;
  for (const step of path) {
    if ("wildcard" in step) continue;
    if ("index" in step) value = Array.isArray(value) ? value[step.index] : undefined;
    else {value = value && typeof value === "object"
        ? (value as Record<string, unknown>)[step.field]
        : undefined;}
  }
  return Array.isArray(value) ? value.map(asRow) : [asRow(value)];
}

/** Every column of a row, for `SELECT *`. */
function allColumns(row: Row): OutputRow {
  if ("csv" in row) return row.csv.map((value, i) => [row.names?.[i] ?? `_${i + 1}`, value]);
  return Object.entries(row.json as Record<string, unknown>);
}

function columnName(statement: SelectStatement, index: number): string {
  const { expr, alias } = statement.projections![index];
  if (alias) return alias;
  if (expr.kind === "path") {
    const last = expr.steps[expr.steps.length - 1];
    if ("field" in last) return last.field;
  }
  return `_${index + 1}`;
}

/** The output rows of the statement over the input rows. */
export async function* selectRows(
  statement: SelectStatement,
  rows: AsyncIterable<Row>,
): AsyncGenerator<OutputRow> {
  if (statement.limit === 0) return;
  const aggregator = isAggregation(statement) ? new Aggregator(statement) : null;
  let emitted = 0;
  for await (const record of rows) {
    for (const row of fromRows(statement.fromPath, record)) {
      if (!rowMatches(statement, row)) continue;
      if (aggregator) {
        aggregator.add(row);
        continue;
      }
      yield statement.projections
        ? statement.projections.map((
          p,
          i,
        ) => [columnName(statement, i), evaluate(p.expr, row, statement.tableAlias)])
        : allColumns(row);
      if (statement.limit !== undefined && ++emitted >= statement.limit) return;
    }
  }
  if (aggregator) {
    const totals = aggregator.totals();
    yield statement.projections!.map((p, i) => [
      columnName(statement, i),
      evaluate(p.expr, { json: {} }, statement.tableAlias, totals),
    ]);
  }
}
