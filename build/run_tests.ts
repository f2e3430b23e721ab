/**
 * The test runner behind three tasks, each ending with the line CI reads: `tests: N passed, N failed`, after a
 * line with the wall time. Exits non-zero on any failure, including type errors and a run that found no tests.
 *
 * - `deno task test`: everything CI runs. Installs what the suite needs (Chromium, AWS CLI, kubectl, Prometheus,
 *   nginx, openssl), builds the assets, type-checks, lints and checks the formatting of every module, and runs
 *   every test.
 * - `deno task test <paths>`: only those test files or folders (type-checked first), with the same set-up.
 * - `deno task test:unit`: the unit tests kept beside the code (server/, islands/, routes/): no system programs,
 *   no build, no whole-tree checks; seconds, for the edit-test loop.
 */
import { build } from "./build.ts";
import {
  AWS_CLI,
  CHROMIUM,
  ensureSystemPrograms,
  KUBECTL,
  LDAP_UTILS,
  NGINX,
  OPENSSL,
  PROMETHEUS,
  SLAPD,
} from "./system_deps.ts";

const root = new URL("../", import.meta.url).pathname;
const CHECK_ROOTS = ["main.ts", "server/", "islands/", "routes/", "build/", "tests/"];
/**
 * Where tests live. build/ holds scripts and tools (benchmarks, the Kubernetes stand-in) and is no root: a file
 * named test.ts there would be run as a test module.
 */
const TEST_ROOTS = ["server/", "islands/", "routes/", "tests/"];
/** Unit tests sit beside the code they test; tests/ holds the ones that need servers, programs or a browser. */
const UNIT_ROOTS = ["server/", "islands/", "routes/"];

const started = performance.now();
const unitOnly = Deno.args.includes("--unit");
const paths = Deno.args.filter((arg) => !arg.startsWith("-"));
const testFlags = Deno.args.filter((arg) => arg.startsWith("-") && arg !== "--unit");

function finish(passed: number, failed: number): never {
  const seconds = Math.round((performance.now() - started) / 1000);
  console.log(`wall time: ${Math.floor(seconds / 60)} min ${seconds % 60} s`);
  console.log(`tests: ${passed} passed, ${failed} failed`);
  Deno.exit(failed > 0 || passed === 0 ? 1 : 0);
}

async function run(args: string[], onLine?: (line: string) => void): Promise<boolean> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    if (!onLine) continue;
    pending += decoder.decode(chunk, { stream: true });
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    lines.forEach(onLine);
  }
  if (pending && onLine) onLine(pending);
  return (await child.status).success;
}

if (!unitOnly) {
  const missing = await ensureSystemPrograms([
    CHROMIUM,
    AWS_CLI,
    KUBECTL,
    PROMETHEUS,
    NGINX,
    OPENSSL,
    SLAPD,
    LDAP_UTILS,
  ]);
  if (missing) {
    console.error(missing);
    finish(0, 1);
  }

  try {
    await build({ ifStale: true });
  } catch (error) {
    console.error(`build failed: ${error instanceof Error ? error.message : error}`);
    finish(0, 1);
  }

  if (!(await run(["check", ...(paths.length ? paths : CHECK_ROOTS)]))) {
    console.error("type check failed");
    finish(0, 1);
  }
}

if (!unitOnly && !paths.length) {
  if (!(await run(["lint"]))) {
    console.error("lint failed");
    finish(0, 1);
  }

  // Sizes are judged on formatted code, so unformatted code fails the run like a lint error.
  if (!(await run(["fmt", "--check"]))) {
    console.error("formatting check failed: run `npx -y deno@2.9.6 fmt`");
    finish(0, 1);
  }
}

// `deno test` ends with "ok | 5 passed (2 steps) | 0 failed ..." or "FAILED | 4 passed | 1 failed ...".
let passed = -1;
let failed = -1;
const roots = unitOnly ? UNIT_ROOTS : paths.length ? paths : TEST_ROOTS;
const ok = await run(["test", "-A", "--no-check", ...testFlags, ...roots], (line) => {
  const summary = /^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/.exec(line.trim());
  if (summary) {
    passed = Number(summary[1]);
    failed = Number(summary[2]);
  }
});
if (passed < 0) {
  console.error("deno test printed no summary (load error or crash)");
  finish(0, 1);
}
finish(passed, ok ? failed : Math.max(failed, 1));
