/**
 * A real Prometheus server (Debian's /usr/bin/prometheus) for the metrics tests: its own temporary config and
 * data directory, a free port, one job scraping the embedded storage's /minio/v2/metrics/cluster every second
 * with a bearer token. Stopped and cleaned up by `stop()`.
 */
import { eventually } from "./eventually.ts";
import { freePort } from "./storage_process.ts";

export interface PrometheusProcess {
  url: string;
  stop(): Promise<void>;
  /** Runs an instant query; returns its vector result. */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** Resolves once `expr` returns at least one sample for which `accept` holds. */
  waitFor(expr: string, accept?: (value: number) => boolean, timeoutMs?: number): Promise<number>;
}

export async function startPrometheus(
  options: { target: string; token: string | null; jobName: string; metricsPath?: string },
): Promise<PrometheusProcess> {
  const dir = await Deno.makeTempDir({ prefix: "deck-prometheus-" });
  const port = await freePort();
  const scrape = [
    "global:",
    "  scrape_interval: 1s",
    "  scrape_timeout: 1s",
    "scrape_configs:",
    `  - job_name: ${JSON.stringify(options.jobName)}`,
    `    metrics_path: ${options.metricsPath ?? "/minio/v2/metrics/cluster"}`,
    ...(options.token ? [`    bearer_token: ${JSON.stringify(options.token)}`] : []),
    "    static_configs:",
    `      - targets: [${JSON.stringify(options.target)}]`,
  ].join("\n");
  await Deno.writeTextFile(`${dir}/prometheus.yml`, scrape);
  const child = new Deno.Command("/usr/bin/prometheus", {
    args: [
      `--config.file=${dir}/prometheus.yml`,
      `--storage.tsdb.path=${dir}/data`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=error",
    ],
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = child.stderr.pipeTo(new WritableStream()).catch(() => {});
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await child.status;
    await stderr;
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  };
  const query = async (expr: string) => {
    const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expr })}`);
    const body = await res.json();
    if (body.status !== "success") throw new Error(`prometheus query failed: ${JSON.stringify(body)}`);
    return body.data.result;
  };
  const waitFor = (expr: string, accept: (value: number) => boolean = () => true, timeoutMs = 30_000) =>
    eventually(`prometheus: an accepted sample of ${expr}`, async () => {
      const result: { value: [number, string] }[] = await query(expr);
      const found = result.map((r) => Number(r.value[1])).find(accept);
      if (found === undefined) throw new Error(`no accepted sample in ${JSON.stringify(result)}`);
      return found;
    }, { until: () => true, timeoutMs });
  try {
    await eventually("prometheus to be ready", async () => {
      const res = await fetch(`${url}/-/ready`);
      await res.body?.cancel();
      return res.ok;
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop, query, waitFor };
}
