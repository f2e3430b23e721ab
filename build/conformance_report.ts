/**
 * Turns a conformance run into docs/conformance.md: totals, a table by feature group, the failures that are
 * ours to fix, those MinIO shares (matched by build/conformance_expectations.ts), the skips, and rules that
 * matched nothing that failed.
 */
import type { CaseResult } from "./conformance_junit.ts";
import { type Expectation, EXPECTATIONS } from "./conformance_expectations.ts";
import { GROUP_ORDER, groupOf } from "./conformance_groups.ts";

export interface Classified extends CaseResult {
  group: string;
  marks: string[];
  /** The rule that says MinIO fails it too (failures and errors only). */
  expected?: Expectation;
}

export interface RunFacts {
  started: Date;
  minutes: number;
  suiteCommit: string;
  suiteDate: string;
  pytestArgs: string[];
  crashes: string[];
  /** Tests collected but not run: the run was interrupted (0 for a whole run). */
  unfinished?: number;
}

const testName = (id: string) => (id.split("::")[1] ?? id).replace(/\[.*\]$/, "");
const fileName = (id: string) => id.split("::")[0].split("/").at(-1) ?? "";
const isFailure = (r: CaseResult) => r.outcome === "failed" || r.outcome === "error";

/** Whether a rule names this test (by file, mark or name); `message` also lets it match by junit message. */
function matches(rule: Expectation, id: string, marks: string[], message?: string): boolean {
  const name = testName(id);
  if ((rule.file && rule.file !== fileName(id)) || rule.except?.includes(name)) return false;
  if (rule.when && !(message !== undefined && rule.when.test(message))) return false;
  const byMark = rule.marks?.some((m) => marks.includes(m)) ?? false;
  const byName = rule.tests?.some((t) => typeof t === "string" ? t === name : t.test(name)) ?? false;
  const byMessage = message !== undefined && (rule.messages?.some((m) => m.test(message)) ?? false);
  return byMark || byName || byMessage || (!rule.marks && !rule.tests && !rule.messages && !!rule.file);
}

/** Answers MinIO would not give whatever the feature: a server error, a dropped connection, a hung request. */
const SERVER_FAULT =
  /InternalError|\(500\)|== 500\b|\b500 ==|EndpointConnectionError|ConnectionClosedError|Connection aborted|RemoteDisconnected|Failed: Timeout/;

/** Adds each result's group and, for failures that are not server faults, the first rule that covers it. */
export function classify(results: CaseResult[], marks: Record<string, string[]>): Classified[] {
  return results.map((r) => {
    const own = marks[r.id] ?? [];
    const expected = isFailure(r) && !SERVER_FAULT.test(r.message)
      ? EXPECTATIONS.find((rule) => matches(rule, r.id, own, r.message))
      : undefined;
    return { ...r, marks: own, group: groupOf(r.id, own), expected };
  });
}

/** A table cell: one line, no pipes breaking the table, code quoted. */
const cell = (text: string) => text.replace(/\s+/g, " ").replaceAll("|", "\\|").trim();
const code = (text: string) => `\`${text.replaceAll("`", "'")}\``;

function count(rows: Classified[]) {
  const n = (f: (r: Classified) => boolean) => rows.filter(f).length;
  return {
    total: rows.length,
    passed: n((r) => r.outcome === "passed"),
    failed: n((r) => r.outcome === "failed"),
    errors: n((r) => r.outcome === "error"),
    skipped: n((r) => r.outcome === "skipped"),
    shared: n((r) => isFailure(r) && !!r.expected),
    ours: n((r) => isFailure(r) && !r.expected),
  };
}

function groupTable(rows: Classified[]): string[] {
  const lines = [
    "| Group | Tests | Passed | Failed | Errors | Skipped | MinIO neither | Ours to fix |",
    "| --- | --: | --: | --: | --: | --: | --: | --: |",
  ];
  // Groups named after a file (no feature group matched) go last.
  const rank = (label: string) =>
    GROUP_ORDER.includes(label) ? GROUP_ORDER.indexOf(label) : GROUP_ORDER.length;
  const labels = [...new Set(rows.map((r) => r.group))].sort((a, b) => rank(a) - rank(b));
  for (const label of labels) {
    const c = count(rows.filter((r) => r.group === label));
    lines.push(
      `| ${label} | ${c.total} | ${c.passed} | ${c.failed} | ${c.errors} | ${c.skipped} | ${c.shared} | ${c.ours} |`,
    );
  }
  const c = count(rows);
  lines.push(
    `| **All** | ${c.total} | ${c.passed} | ${c.failed} | ${c.errors} | ${c.skipped} | ${c.shared} | ${c.ours} |`,
  );
  return lines;
}

function oursSection(rows: Classified[]): string[] {
  const ours = rows.filter((r) => isFailure(r) && !r.expected);
  const lines = [`## Ours to fix (${ours.length})`, ""];
  if (ours.length === 0) return [...lines, "None.", ""];
  lines.push("By feature group; the reason is junit's message (the exception or assertion).", "");
  for (const label of GROUP_ORDER.filter((l) => ours.some((r) => r.group === l))) {
    lines.push(`### ${label}`, "", "| Test | Reason |", "| --- | --- |");
    for (const r of ours.filter((r) => r.group === label)) {
      lines.push(
        `| ${code(testName(r.id))} | ${cell(r.outcome === "error" ? `(error) ${r.message}` : r.message)} |`,
      );
    }
    lines.push("");
  }
  return lines;
}

function sharedSection(rows: Classified[]): string[] {
  const shared = rows.filter((r) => isFailure(r) && r.expected);
  const lines = [`## MinIO does not support this either (${shared.length})`, ""];
  const part = (title: string, intro: string, rules: Expectation[]) => {
    const used = rules.filter((rule) => shared.some((r) => r.expected === rule));
    if (used.length === 0) return;
    lines.push(`### ${title}`, "", intro, "");
    for (const rule of used) {
      const hits = shared.filter((r) => r.expected === rule);
      lines.push(`#### ${rule.reason} (${hits.length})`, "", `Source: ${rule.source}.`, "");
      lines.push(hits.map((r) => code(testName(r.id))).join(", "), "");
    }
  };
  part(
    "Where the suite assumes Ceph RGW",
    "These tests exercise RGW's own extensions or need RGW's test set-up (its IAM and STS services, tenants, " +
      "accounts, debug intervals); neither MinIO nor AWS S3 answers them as the suite expects.",
    EXPECTATIONS.filter((rule) => rule.rgwOnly),
  );
  part(
    "Where MinIO answers the same way",
    "MinIO refuses these features or answers differently, and so does the embedded storage, which follows MinIO.",
    EXPECTATIONS.filter((rule) => !rule.rgwOnly),
  );
  return lines;
}

function skippedSection(rows: Classified[]): string[] {
  const skipped = rows.filter((r) => r.outcome === "skipped");
  const lines = [`## Skipped by the suite (${skipped.length})`, "", "| Reason | Tests |", "| --- | --- |"];
  const byReason = Map.groupBy(skipped, (r) => r.message.replace(/^Skipped:\s*/, ""));
  for (const [reason, hits] of byReason) {
    lines.push(`| ${cell(reason || "(none given)")} | ${hits.map((r) => code(testName(r.id))).join(", ")} |`);
  }
  return [...lines, ""];
}

/** Each distinct crash once, with how often it happened. */
function crashSection(crashes: string[]): string[] {
  if (crashes.length === 0) return [];
  const counts = Map.groupBy(crashes, (c) => c);
  return [
    `**The storage process ended ${crashes.length} times during the run** (it was started again each time):`,
    "",
    ...[...counts].map(([crash, all]) => `- ${all.length > 1 ? `${all.length} times: ` : ""}${crash}`),
    "",
  ];
}

/** Rules whose named tests ran, some passed and none failed: the storage may have outgrown them. */
function staleSection(rows: Classified[]): string[] {
  const stale = EXPECTATIONS.filter((rule) => {
    const named = rows.filter((r) => matches(rule, r.id, r.marks));
    return named.some((r) => r.outcome === "passed") && !rows.some((r) => r.expected === rule);
  });
  if (stale.length === 0) return [];
  return [
    "## Expectations that matched no failure",
    "",
    "Tests these rules of build/conformance_expectations.ts name ran and none failed: remove a rule once its",
    "tests pass for good.",
    "",
    ...stale.map((rule) => `- ${rule.reason}`),
    "",
  ];
}

/** The report's Markdown, a one-line summary for the terminal, and how many failures are ours. */
export function renderReport(
  rows: Classified[],
  facts: RunFacts,
): { markdown: string; summary: string; oursToFix: number } {
  const c = count(rows);
  const when = facts.started.toISOString().slice(0, 16).replace("T", " ");
  const args = facts.pytestArgs.length
    ? ` -- ${facts.pytestArgs.map((a) => /[\s'"]/.test(a) ? `'${a}'` : a).join(" ")}`
    : "";
  const lines = [
    "# S3 conformance: Ceph's s3-tests against the embedded storage",
    "",
    "Written by `deno task conformance` (build/conformance.ts); edit build/conformance_expectations.ts, not this",
    'file. How to get the suite and run it: README.md, "S3 conformance".',
    "",
    `- Run: ${when} UTC, ${facts.minutes} min on this machine (2 cores).` +
    (facts.unfinished ? ` **Interrupted: ${facts.unfinished} collected tests did not run.**` : ""),
    `- Suite: ceph/s3-tests at ${code(facts.suiteCommit)}${facts.suiteDate ? ` (${facts.suiteDate})` : ""}.`,
    `- Reproduce: ${code(`S3_TESTS_DIR=/path/to/s3-tests npx -y deno@2.9.6 task conformance${args}`)}`,
    `- Storage: server/storage/standalone.ts on a free loopback port, fresh data directory, static KMS key; the`,
    "  suite's accounts (main, alt, tenant, iam, iam root, iam alt root) are users with MinIO's `readwrite`",
    "  policy, created through the admin API.",
    "",
    "## Totals",
    "",
    "| Tests | Passed | Failed | Errors | Skipped | MinIO does not support either | Ours to fix |",
    "| --: | --: | --: | --: | --: | --: | --: |",
    `| ${c.total} | ${c.passed} | ${c.failed} | ${c.errors} | ${c.skipped} | ${c.shared} | ${c.ours} |`,
    "",
    ...crashSection(facts.crashes),
    "## By feature group",
    "",
    ...groupTable(rows),
    "",
    ...oursSection(rows),
    ...sharedSection(rows),
    ...skippedSection(rows),
    ...staleSection(rows),
  ];
  const summary = `conformance: ${c.passed} passed, ${
    c.failed + c.errors
  } failed (${c.ours} ours to fix, ${c.shared} shared with MinIO), ${c.skipped} skipped`;
  return { markdown: lines.join("\n"), summary, oursToFix: c.ours };
}
