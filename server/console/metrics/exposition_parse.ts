/**
 * Reads Prometheus' text exposition format (0.0.4) as a scrape does: comment lines skipped, one sample per
 * line as `name{label="value",…} value [timestamp]`, label values unescaped (\\, \", \n). Lines that do not
 * parse are skipped and counted rather than failing the whole scrape.
 * https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */
import type { LabeledValue } from "./history.ts";

export interface ParsedExposition {
  samples: LabeledValue[];
  /** Names declared `# TYPE name counter`. */
  counters: Set<string>;
  badLines: number;
}

function parseValue(text: string): number {
  if (text === "+Inf" || text === "Inf") return Infinity;
  if (text === "-Inf") return -Infinity;
  if (text === "NaN") return NaN;
  const value = Number(text);
  if (text === "" || Number.isNaN(value)) throw new Error(`bad value ${text}`);
  return value;
}

function parseLine(line: string): LabeledValue {
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
  if (!name) throw new Error("no metric name");
  const labels: Record<string, string> = { __name__: name };
  let i = name.length;
  if (line[i] === "{") {
    i++;
    while (true) {
      while (line[i] === " " || line[i] === ",") i++;
      if (line[i] === "}") {
        i++;
        break;
      }
      const label = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(i))?.[0];
      if (!label || line.slice(i + label.length, i + label.length + 2) !== '="') throw new Error("bad label");
      i += label.length + 2;
      let value = "";
      while (i < line.length && line[i] !== '"') {
        if (line[i] === "\\") {
          const next = line[++i];
          value += next === "n" ? "\n" : next;
        } else value += line[i];
        i++;
      }
      if (line[i] !== '"') throw new Error("unterminated label value");
      i++;
      labels[label] = value;
    }
  }
  const [valueText] = line.slice(i).trim().split(/\s+/);
  return { labels, value: parseValue(valueText ?? "") };
}

/** Samples of the metric names in `keep` (all when omitted). */
export function parseExposition(text: string, keep?: Set<string>): ParsedExposition {
  const samples: LabeledValue[] = [];
  const counters = new Set<string>();
  let badLines = 0;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line) continue;
    if (line.startsWith("#")) {
      const type = /^#\s*TYPE\s+(\S+)\s+counter\s*$/.exec(line);
      if (type) counters.add(type[1]);
      continue;
    }
    if (keep) {
      const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
      if (!name || !keep.has(name)) continue;
    }
    try {
      samples.push(parseLine(line));
    } catch {
      badLines++;
    }
  }
  return { samples, counters, badLines };
}
