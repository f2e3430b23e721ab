/**
 * Where widget queries run: an external Prometheus (prometheus.ts) or the on-box history
 * (history_source.ts). Both answer the same widget expressions with the same matrix shape.
 */
import type { MatrixSeries } from "./promql/evaluate.ts";

export interface SourceState {
  /** False when the source cannot answer at all (nothing sampled and the last scrape failed). */
  ok: boolean;
  /** What is wrong, for the page. */
  problem?: string;
}

export interface WidgetSource {
  kind: "prometheus" | "history";
  /** One sentence stating where the numbers come from. */
  description: string;
  state(): SourceState;
  /**
   * Runs a widget expression (with `$__query` and `$__rate_interval` still in it) as a range query;
   * `start`/`end` in epoch seconds, `step` in seconds. Throws SourceError when the source fails.
   */
  queryRange(template: string, start: number, end: number, step: number): Promise<MatrixSeries[]>;
}

/** The source could not answer (unreachable, refused, timed out, bad answer). */
export class SourceError extends Error {
  constructor(message: string, readonly detail: string) {
    super(message);
    this.name = "SourceError";
  }
}
