/**
 * Widget queries against an external Prometheus (CONSOLE_PROMETHEUS_URL), as the original console talks to
 * it (part 2 §4.6): a health probe `GET /-/healthy` (2 s), then `GET /api/v1/query_range` per target with
 * `$__query` = `job="<job id>"[,extra labels]` and `$__rate_interval` = 240s. Basic or bearer auth when set.
 * A slow Prometheus costs a panel at most `timeoutMs`; it never blocks a page.
 * https://prometheus.io/docs/prometheus/latest/querying/api/#range-queries
 */
import type { MatrixSeries } from "./promql/evaluate.ts";
import { SourceError, type WidgetSource } from "./source.ts";
import { t } from "../../../islands/lib/i18n/t.ts";
// Installs the per-request language (English outside a request) for the texts below.
import "../render/i18n.ts";
import { expandExpr, querySelector } from "./widgets.ts";

export interface PrometheusSourceOptions {
  url: string;
  jobId: string;
  extraLabels: string;
  auth: { bearer: string } | { username: string; password: string } | null;
  fetch: typeof fetch;
  timeoutMs?: number;
  now?: () => number;
}

const HEALTH_TIMEOUT_MS = 2_000;
/** The v0.10 console's replacement for Grafana's $__rate_interval. */
const RATE_INTERVAL = "240s";
const UNREACHABLE = "Prometheus URL is unreachable";

export function createPrometheusSource(options: PrometheusSourceOptions): WidgetSource {
  const base = options.url.replace(/\/+$/, "");
  const now = options.now ?? Date.now;
  const headers: Record<string, string> = {};
  if (options.auth && "bearer" in options.auth) headers.authorization = `Bearer ${options.auth.bearer}`;
  else if (options.auth) {
    headers.authorization = `Basic ${btoa(`${options.auth.username}:${options.auth.password}`)}`;
  }
  let lastProblem: string | undefined;
  // One probe serves the panels of a page load instead of one per panel.
  let health: { at: number; result: Promise<void> } | null = null;

  const probe = (): Promise<void> => {
    if (health && now() - health.at < 5_000) return health.result;
    const result = (async () => {
      let res: Response;
      try {
        res = await options.fetch(`${base}/-/healthy`, {
          headers,
          signal: AbortSignal.timeout(HEALTH_TIMEOUT_MS),
        });
        await res.body?.cancel();
      } catch (error) {
        throw new SourceError(
          UNREACHABLE,
          `${base}/-/healthy: ${error instanceof Error ? error.message : error}`,
        );
      }
      if (res.status !== 200) throw new SourceError(UNREACHABLE, `${base}/-/healthy answered ${res.status}`);
    })();
    health = { at: now(), result };
    return result;
  };

  const selector = querySelector(options.jobId, options.extraLabels);
  return {
    kind: "prometheus",
    get description() {
      return t("monitoring.source.prometheus", { url: base, job: options.jobId });
    },
    state: () => ({ ok: true, problem: lastProblem }),
    async queryRange(template, start, end, step): Promise<MatrixSeries[]> {
      try {
        await probe();
        const query = new URLSearchParams({
          query: expandExpr(template, selector, RATE_INTERVAL),
          start: String(start),
          end: String(end),
          step: String(step),
        });
        let res: Response;
        try {
          res = await options.fetch(`${base}/api/v1/query_range?${query}`, {
            headers,
            signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
          });
        } catch (error) {
          throw new SourceError(
            "Prometheus did not answer",
            error instanceof Error ? error.message : String(error),
          );
        }
        const text = await res.text();
        let body: {
          status?: string;
          error?: string;
          data?: { resultType?: string; result?: MatrixSeries[] };
        };
        try {
          body = JSON.parse(text);
        } catch {
          throw new SourceError(
            "Prometheus answered something that is not JSON",
            `status ${res.status}: ${text.slice(0, 200)}`,
          );
        }
        if (
          body.status !== "success" || body.data?.resultType !== "matrix" || !Array.isArray(body.data.result)
        ) {
          throw new SourceError("Prometheus refused the query", body.error ?? `status ${res.status}`);
        }
        lastProblem = undefined;
        return body.data.result.map((r) => ({ metric: r.metric ?? {}, values: r.values ?? [] }));
      } catch (error) {
        if (error instanceof SourceError) lastProblem = `${error.message}: ${error.detail}`;
        throw error;
      }
    },
  };
}
