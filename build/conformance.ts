/**
 * `deno task conformance`: runs Ceph's s3-tests (the independent S3 conformance suite) against the embedded
 * storage and writes docs/conformance.md: totals, a table by feature group, and every failure sorted into
 * "MinIO does not support this either" (build/conformance_expectations.ts) and "ours to fix".
 *
 *   npx -y deno@2.9.6 task conformance                                           # the whole suite
 *   S3_TESTS_DIR=/path/to/s3-tests npx -y deno@2.9.6 task conformance            # a checkout of your own
 *   S3_TESTS_GIT=/path/to/a/mirror.git npx -y deno@2.9.6 task conformance        # cloned from there
 *   npx -y deno@2.9.6 task conformance -- -k bucket_list                         # a pytest -k filter
 *   npx -y deno@2.9.6 task conformance -- s3tests/functional/test_s3.py::test_bucket_list_empty
 *
 *   npx -y deno@2.9.6 task conformance --report                                  # re-sort the last run
 *
 * With pytest arguments the report goes to .cache/conformance/report.md and docs/conformance.md is left as the
 * last full run wrote it. `--report` writes the report again from the last run's results (kept in
 * .cache/conformance/), after build/conformance_expectations.ts changed. Exits 1 when a failure is "ours to
 * fix" or the storage crashed, 2 when the suite is missing and cannot be cloned. Without S3_TESTS_DIR the suite
 * is cloned into .cache/s3-tests (from S3_TESTS_GIT, GitHub by default) at the commit the expectations match.
 */
import { ensurePythonEnv } from "./conformance_python.ts";
import { type Crash, startConformanceStorage, suiteConfig } from "./conformance_storage.ts";
import { type CaseResult, parseJunit } from "./conformance_junit.ts";
import { classify, renderReport, type RunFacts } from "./conformance_report.ts";

const root = new URL("../", import.meta.url).pathname;
const CACHE = `${root}.cache`;
/**
 * Where a run keeps its results, junit files and storage log. CONFORMANCE_STATE_DIR lets a short run (the
 * subset test) keep its own, so the last whole run can still be reported with --report.
 */
const STATE = Deno.env.get("CONFORMANCE_STATE_DIR") || `${CACHE}/conformance`;
const SUITE_REPO = "https://github.com/ceph/s3-tests";
/** The suite's commit build/conformance_expectations.ts was written against (docs/conformance.md records it). */
const SUITE_COMMIT = "8f0ae7b404a3a2fcf7038bf1e6bf29544fe9b6a3";
/** Tests per pytest process: a storage crash costs one chunk, and progress shows as chunks finish. */
const CHUNK_SIZE = 60;
/** Seconds one test may take (pytest-timeout); the suite's slowest real waits are its lifecycle sleeps. */
const TEST_TIMEOUT = 120;
/**
 * Our pytest plugin (loaded with -p, written beside the run's config; none of the suite's code is changed):
 * - at collection, records each test's marks for the report's groups;
 * - before each test, force-deletes (MinIO's x-minio-force-delete, as root) the run's buckets an earlier test
 *   could not delete. junit already charges that failure to the test that left them; without this every later
 *   test of the chunk would fail in the suite's own set-up, which empties and deletes them again.
 */
const PLUGIN = `import json, os
import boto3, pytest
from botocore.config import Config

def pytest_collection_finish(session):
    if session.config.option.collectonly:
        marks = {item.nodeid: sorted({m.name for m in item.iter_markers()}) for item in session.items}
        with open(os.environ["DECK_MARKS_FILE"], "w") as f:
            json.dump(marks, f)

_root = None

@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    global _root
    import s3tests.functional as suite
    if not suite.prefix:
        return
    if _root is None:
        _root = boto3.client("s3", endpoint_url=os.environ["DECK_ENDPOINT"],
            aws_access_key_id=os.environ["DECK_ROOT_ACCESS_KEY"],
            aws_secret_access_key=os.environ["DECK_ROOT_SECRET_KEY"],
            config=Config(retries={"max_attempts": 1}))
        _root.meta.events.register("before-sign.s3.DeleteBucket",
            lambda request, **kwargs: request.headers.__setitem__("x-minio-force-delete", "true"))
    try:
        for bucket in _root.list_buckets()["Buckets"]:
            if suite.prefix in bucket["Name"]:
                _root.delete_bucket(Bucket=bucket["Name"])
    except Exception:
        pass
`;

const LAST_RUN = `${STATE}/last-run.json`;

interface Run {
  facts: Omit<RunFacts, "started"> & { started: string };
  results: CaseResult[];
  marks: Record<string, string[]>;
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/**
 * The suite's checkout: S3_TESTS_DIR, else .cache/s3-tests, cloned there at SUITE_COMMIT from S3_TESTS_GIT (a git
 * URL or a local repository, GitHub's by default) when missing. s3-tests is published only as a git repository:
 * no package registry (PyPI, npm, Debian) carries it. Exits 2 saying how to provide one when none can be had.
 */
async function findSuite(): Promise<string> {
  const given = Deno.env.get("S3_TESTS_DIR");
  const dir = (given || `${CACHE}/s3-tests`).replace(/\/+$/, "");
  if (await exists(`${dir}/s3tests/functional/__init__.py`)) return dir;
  const source = Deno.env.get("S3_TESTS_GIT") || SUITE_REPO;
  if (!given) {
    console.log(`Cloning s3-tests from ${source} into ${dir} (commit ${SUITE_COMMIT.slice(0, 7)})...`);
    const problem = await cloneSuite(source, dir);
    if (!problem) return dir;
    console.error(problem);
  }
  console.error(
    `Ceph's s3-tests is not at ${dir}. It comes only as a git repository (${SUITE_REPO}); give the run one of:\n` +
      "  S3_TESTS_DIR=/path/to/a/checkout npx -y deno@2.9.6 task conformance\n" +
      "  S3_TESTS_GIT=<git URL or path of a clone or mirror> npx -y deno@2.9.6 task conformance",
  );
  Deno.exit(2);
}

/** Clones the suite at the commit the expectations were written against; the problem, or null. */
async function cloneSuite(source: string, dir: string): Promise<string | null> {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const run = async (args: string[]) => {
    const out = await new Deno.Command("git", {
      args,
      stdout: "piped",
      stderr: "piped",
      env: { GIT_TERMINAL_PROMPT: "0" },
      signal: AbortSignal.timeout(300_000),
    }).output().catch((error) => ({ success: false, stderr: new TextEncoder().encode(`${error}`) }));
    return out.success ? null : new TextDecoder().decode(out.stderr).trim();
  };
  const problem = (await run(["clone", "--quiet", "--no-checkout", source, dir])) ??
    (await run(["-C", dir, "checkout", "--quiet", SUITE_COMMIT]));
  if (problem) await Deno.remove(dir, { recursive: true }).catch(() => {});
  return problem && `git could not get s3-tests from ${source}: ${problem}`;
}

async function git(suiteDir: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-C", suiteDir, ...args],
    stdout: "piped",
    stderr: "null",
  })
    .output().catch(() => null);
  return out?.success ? new TextDecoder().decode(out.stdout).trim() : "";
}

/**
 * One line on a crash: the test that was running (by junit's start time and durations), and the storage's
 * last words: its uncaught error and the first frame in our code.
 */
function describeCrash(crash: Crash, chunk: number, found: CaseResult[]): string {
  const running = found.findLast((r) => r.startedAt !== undefined && r.startedAt <= crash.at);
  const lines = crash.lastWords.split("\n").map((l) => l.trim());
  const errorAt = lines.findLastIndex((l) => /^error:|Uncaught/.test(l));
  const error = errorAt >= 0 ? lines[errorAt] : lines.findLast((l) => l !== "") ?? "";
  const where = lines.slice(errorAt + 1).find((l) => l.startsWith("at ") && l.includes("file://")) ?? "";
  return `exit code ${crash.code} during chunk ${chunk}` + (running ? `, in ${running.id}` : "") +
    `: ${error} ${where.replace(/file:\/\/\S*?\/(server|build|tests)\//, "$1/")}`.trimEnd();
}

/** Writes the run (so far) to .cache/conformance/last-run.json and returns it. */
async function saveRun(
  started: Date,
  suiteDir: string,
  pytestArgs: string[],
  progress: { results: CaseResult[]; marks: Record<string, string[]>; crashes: string[]; unfinished: number },
): Promise<Run> {
  const run: Run = {
    facts: {
      started: started.toISOString(),
      minutes: Math.round((Date.now() - started.getTime()) / 60_000),
      suiteCommit: (await git(suiteDir, ["rev-parse", "HEAD"])) || "unknown (not a git checkout)",
      suiteDate: await git(suiteDir, ["log", "-1", "--format=%cs"]),
      pytestArgs,
      crashes: progress.crashes,
      unfinished: progress.unfinished,
    },
    results: progress.results,
    marks: progress.marks,
  };
  await Deno.writeTextFile(LAST_RUN, JSON.stringify(run));
  return run;
}

/** Starts the storage, runs the suite against it chunk by chunk, and stops it again. */
async function runSuite(suiteDir: string, python: string, pytestArgs: string[]): Promise<Run> {
  const started = new Date();
  const work = await Deno.makeTempDir({ prefix: "deck-conformance-" });
  const junitDir = `${STATE}/junit`;
  await Deno.remove(junitDir, { recursive: true }).catch(() => {});
  await Deno.mkdir(junitDir, { recursive: true });
  await Deno.mkdir(`${work}/home`);
  await Deno.writeTextFile(`${work}/deck_plugin.py`, PLUGIN);
  const storageLog = `${STATE}/storage.log`;
  await Deno.remove(storageLog).catch(() => {});
  const storage = await startConformanceStorage(`${work}/data`, storageLog);
  await Deno.writeTextFile(`${work}/s3tests.conf`, suiteConfig(storage));
  // A clean environment: no AWS settings, credentials or models of the person running it reach boto3.
  const env = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: `${work}/home`,
    LANG: "C.UTF-8",
    S3TEST_CONF: `${work}/s3tests.conf`,
    PYTHONPATH: work,
    // Compiled (and assertion-rewritten) modules go under .cache/, so the checkout stays as it was and
    // each chunk does not rewrite the suite's 20,000-line module again.
    PYTHONPYCACHEPREFIX: `${CACHE}/conformance/pycache`,
    DECK_MARKS_FILE: `${work}/marks.json`,
    AWS_DEFAULT_REGION: "us-east-1",
    DECK_ENDPOINT: storage.url,
    DECK_ROOT_ACCESS_KEY: storage.root.accessKey,
    DECK_ROOT_SECRET_KEY: storage.root.secretKey,
  };
  let running: Deno.ChildProcess | null = null;
  // Set once interrupted: the chunk loop goes on while the storage stops, and must start no further pytest.
  let stopping = false;
  const pytest = async (args: string[]) => {
    if (stopping) return await new Promise<void>(() => {});
    running = new Deno.Command(python, {
      args: ["-m", "pytest", "-p", "no:cacheprovider", "-p", "deck_plugin", ...args],
      cwd: suiteDir,
      clearEnv: true,
      env,
      stdout: "null",
      stderr: "null",
    }).spawn();
    await running.status;
    running = null;
  };
  const results: CaseResult[] = [];
  const crashes: string[] = [];
  // Interrupted (Ctrl-C, SIGTERM): stop pytest and the storage, and remove the run's data.
  const interrupted = async () => {
    stopping = true;
    try {
      (running as Deno.ChildProcess | null)?.kill("SIGTERM");
    } catch {
      // already gone
    }
    await storage.stop();
    await Deno.remove(work, { recursive: true }).catch(() => {});
    Deno.exit(130);
  };
  Deno.addSignalListener("SIGINT", interrupted);
  Deno.addSignalListener("SIGTERM", interrupted);
  try {
    console.log(`storage ${storage.url}; collecting tests in ${suiteDir} ...`);
    await pytest([
      "--collect-only",
      "-q",
      ...(pytestArgs.length ? pytestArgs : ["s3tests/functional"]),
    ]);
    const marks: Record<string, string[]> = JSON.parse(
      await Deno.readTextFile(env.DECK_MARKS_FILE).catch(() => "{}"),
    );
    const ids = Object.keys(marks);
    if (ids.length === 0) throw new Error("pytest collected no tests (check the arguments)");
    const chunks = Math.ceil(ids.length / CHUNK_SIZE);
    for (let i = 0; i < chunks; i++) {
      const chunk = ids.slice(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE);
      const junit = `${junitDir}/chunk-${String(i + 1).padStart(2, "0")}.xml`;
      const t0 = performance.now();
      const crashesBefore = storage.crashes.length;
      await pytest(["-q", `--timeout=${TEST_TIMEOUT}`, `--junitxml=${junit}`, ...chunk]);
      const found = parseJunit(await Deno.readTextFile(junit).catch(() => ""), chunk);
      results.push(...found);
      const n = (outcome: string) => found.filter((r) => r.outcome === outcome).length;
      console.log(
        `chunk ${i + 1}/${chunks}: ${n("passed")} passed, ${n("failed")} failed, ${n("error")} errors, ` +
          `${n("skipped")} skipped (${Math.round((performance.now() - t0) / 1000)} s)`,
      );
      // Saved after every chunk: an interrupted run can still be reported (--report) for what it ran.
      const unfinished = ids.length - results.length;
      await saveRun(started, suiteDir, pytestArgs, { results, marks, crashes, unfinished });
      for (const crash of storage.crashes.slice(crashesBefore)) {
        crashes.push(describeCrash(crash, i + 1, found));
        console.error(`the storage process ended and was started again: ${crashes.at(-1)}`);
      }
    }
    return await saveRun(started, suiteDir, pytestArgs, { results, marks, crashes, unfinished: 0 });
  } finally {
    Deno.removeSignalListener("SIGINT", interrupted);
    Deno.removeSignalListener("SIGTERM", interrupted);
    await storage.stop();
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}

const reportOnly = Deno.args.includes("--report");
let run: Run;
if (reportOnly) {
  run = JSON.parse(
    await Deno.readTextFile(LAST_RUN).catch(() => {
      console.error(`No earlier run in ${LAST_RUN}: run the suite first.`);
      Deno.exit(1);
    }),
  );
} else {
  const suiteDir = await findSuite();
  const commit = await git(suiteDir, ["rev-parse", "HEAD"]);
  if (commit !== SUITE_COMMIT) {
    console.warn(
      `s3-tests at ${suiteDir} is at ${
        commit || "an unknown commit"
      }, not ${SUITE_COMMIT}: the expectations ` +
        "were written against the latter, so tests the suite added or changed may be misfiled.",
    );
  }
  let python: string;
  try {
    python = await ensurePythonEnv(`${CACHE}/s3-tests-venv`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    Deno.exit(1);
  }
  // `deno task conformance -- -k x` passes the "--" on.
  run = await runSuite(suiteDir, python, Deno.args.filter((arg, i) => !(i === 0 && arg === "--")));
}
const report = renderReport(classify(run.results, run.marks), {
  ...run.facts,
  started: new Date(run.facts.started),
});
const target = run.facts.pytestArgs.length ? `${STATE}/report.md` : `${root}docs/conformance.md`;
await Deno.writeTextFile(target, report.markdown);
console.log(report.summary);
console.log(`report: ${target}`);
Deno.exit(report.oursToFix > 0 || run.facts.crashes.length > 0 ? 1 : 0);
