/**
 * Prometheus text exposition format 0.0.4 (what MinIO's `expfmt` writes and Prometheus scrapes): one
 * `# HELP` and `# TYPE` line per family, then one line per sample with its labels in braces.
 * https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */

export type MetricType = "gauge" | "counter";

export interface Sample {
  labels: Record<string, string>;
  value: number;
}

export interface MetricFamily {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** HELP text escapes backslash and newline; label values also escape the double quote. */
const escapeHelp = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
const escapeLabel = (text: string) => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/"/g, '\\"');

function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/** Writes families in the order given, labels sorted by name; families without samples are left out (as client_golang does). */
export function renderExposition(families: MetricFamily[]): string {
  const lines: string[] = [];
  for (const family of families) {
    if (family.samples.length === 0) continue;
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`);
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map((
        [k, v],
      ) => `${k}="${escapeLabel(v)}"`).join(",");
      lines.push(`${family.name}${labels ? `{${labels}}` : ""} ${formatValue(sample.value)}`);
    }
  }
  return lines.join("\n") + "\n";
}

/** Builds a family; `server` is added to every sample's labels as MinIO's ReportMetrics does (part 2 §4.2). */
export function family(
  name: string,
  type: MetricType,
  help: string,
  samples: Sample[],
  server: string,
): MetricFamily {
  return {
    name,
    type,
    help,
    samples: samples.map((s) => ({ labels: { ...s.labels, server }, value: s.value })),
  };
}

/** One unlabelled sample. */
export const single = (value: number): Sample[] => [{ labels: {}, value }];
