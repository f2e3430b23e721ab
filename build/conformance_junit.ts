/** Reads pytest's junit XML into one result per test id of the chunk that was run. */
import { children, parseXml, type XmlNode } from "../server/lib/s3/xml.ts";

export type Outcome = "passed" | "failed" | "error" | "skipped";

export interface CaseResult {
  /** pytest node id, e.g. s3tests/functional/test_s3.py::test_bucket_list_empty */
  id: string;
  outcome: Outcome;
  /** The first line of junit's message (an exception or assertion), for failures, errors and skips. */
  message: string;
  /** The rest of junit's text: the traceback, kept for the person fixing it. */
  detail: string;
  seconds: number;
  /** When it started (ms since the epoch), from the suite's timestamp and the durations before it. */
  startedAt?: number;
}

const MESSAGE_LIMIT = 300;

/** `s3tests.functional.test_s3` + `test_x[1]` → `s3tests/functional/test_s3.py::test_x[1]` */
function nodeId(testcase: XmlNode): string {
  const file = (testcase.attributes.classname ?? "").replaceAll(".", "/") + ".py";
  return `${file}::${testcase.attributes.name ?? ""}`;
}

function shortMessage(text: string): string {
  const line = text.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
  return line.length > MESSAGE_LIMIT ? `${line.slice(0, MESSAGE_LIMIT - 1)}…` : line;
}

function outcomeOf(testcase: XmlNode): { outcome: Outcome; node?: XmlNode } {
  for (const outcome of ["error", "failure", "skipped"] as const) {
    const node = children(testcase, outcome)[0];
    if (node) return { outcome: outcome === "failure" ? "failed" : outcome, node };
  }
  return { outcome: "passed" };
}

/**
 * One result per expected id. A test junit does not list (pytest or the storage died under it) counts as an
 * error, so a crash can never make tests disappear from the totals.
 */
export function parseJunit(xml: string, expected: string[]): CaseResult[] {
  const byId = new Map<string, CaseResult>();
  let problem = "";
  try {
    const root = parseXml(xml);
    const suites = root.name === "testsuites" ? children(root, "testsuite") : [root];
    const testcases = suites.flatMap((suite) => children(suite, "testcase"));
    // Counted back from the session's end: its start also covers collection, which no testcase accounts for.
    const sessionEnd = Date.parse(suites[0]?.attributes.timestamp ?? "") +
      Number(suites[0]?.attributes.time ?? 0) * 1000;
    let clock = sessionEnd - testcases.reduce((sum, t) => sum + Number(t.attributes.time ?? 0) * 1000, 0);
    for (const testcase of testcases) {
      const startedAt = Number.isNaN(clock) ? undefined : clock;
      clock += Number(testcase.attributes.time ?? 0) * 1000;
      const { outcome, node } = outcomeOf(testcase);
      const id = nodeId(testcase);
      const message = shortMessage(node?.attributes.message || node?.text || "");
      const previous = byId.get(id);
      // pytest reports a teardown error as a second testcase entry; the failure of the test itself comes first.
      if (previous && previous.outcome !== "passed") continue;
      byId.set(id, {
        id,
        outcome,
        message,
        detail: node?.text ?? "",
        seconds: Number(testcase.attributes.time ?? 0),
        startedAt: previous?.startedAt ?? startedAt,
      });
    }
  } catch (error) {
    problem = `pytest wrote no readable junit XML (${error instanceof Error ? error.message : error})`;
  }
  return expected.map((id) =>
    byId.get(id) ??
      { id, outcome: "error", message: problem || "not reported by pytest", detail: "", seconds: 0 }
  );
}
