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
 *
 * Test files run in two `deno test` processes side by side (DECK_TEST_SHARDS=1 runs them in one): a serial run
 * kept about one of the machine's two cores busy, as most of a test waits on a browser, a server or a disk.
 * Each file stays whole in one process, the heaviest first, so the two end at about the same time; each line
 * a process prints carries its number. Tests take their ports from the kernel and their names from the run,
 * so two files never meet on a port, a directory or a database.
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

/** Runs deno with `args`, passing its output on whole lines, each after `prefix`, and to `onLine`. */
async function run(args: string[], onLine?: (line: string) => void, prefix = ""): Promise<boolean> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const encoder = new TextEncoder();
  const pass = async (
    stream: ReadableStream<Uint8Array>,
    out: typeof Deno.stdout,
    lineSeen?: typeof onLine,
  ) => {
    const decoder = new TextDecoder();
    let pending = "";
    for await (const chunk of stream) {
      const lines = (pending + decoder.decode(chunk, { stream: true })).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        await out.write(encoder.encode(`${prefix}${line}\n`));
        lineSeen?.(line);
      }
    }
    if (pending) {
      await out.write(encoder.encode(`${prefix}${pending}\n`));
      lineSeen?.(pending);
    }
  };
  await Promise.all([pass(child.stdout, Deno.stdout, onLine), pass(child.stderr, Deno.stderr)]);
  return (await child.status).success;
}

/** The test files under `roots` (files named there are kept as they are), as `deno test` finds them. */
async function testFiles(roots: string[]): Promise<string[]> {
  const files: string[] = [];
  const isTest = (name: string) => /(^|[._])test\.(ts|tsx|mts|js|jsx|mjs)$/.test(name);
  const walk = async (path: string): Promise<void> => {
    const info = await Deno.stat(`${root}${path}`);
    if (info.isFile) return void files.push(path);
    for await (const entry of Deno.readDir(`${root}${path}`)) {
      const child = `${path.replace(/\/$/, "")}/${entry.name}`;
      // deno.json excludes tests/fixtures/ from everything; node_modules is not ours.
      if (entry.isDirectory && entry.name !== "node_modules" && entry.name !== "fixtures") await walk(child);
      else if (entry.isFile && isTest(entry.name)) files.push(child);
    }
  };
  for (const path of roots) await walk(path);
  return files.sort();
}

/**
 * Splits test files into `count` lists of about equal work: a file's weight is its size, three times over for
 * a browser test (each step drives Chromium); the heaviest go first, each to the lightest list so far.
 */
async function shards(files: string[], count: number): Promise<string[][]> {
  const weighed = await Promise.all(files.map(async (file) => ({
    file,
    weight: (await Deno.stat(`${root}${file}`)).size * (file.startsWith("tests/browser/") ? 3 : 1),
  })));
  const lists = Array.from({ length: count }, () => ({ files: [] as string[], weight: 0 }));
  for (const { file, weight } of weighed.sort((a, b) => b.weight - a.weight)) {
    const lightest = lists.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.files.push(file);
    lightest.weight += weight;
  }
  return lists.map((list) => list.files).filter((list) => list.length > 0);
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
const roots = unitOnly ? UNIT_ROOTS : paths.length ? paths : TEST_ROOTS;
const shardCount = Math.max(1, Number(Deno.env.get("DECK_TEST_SHARDS") ?? 2) || 1);
const lists = await shards(await testFiles(roots), shardCount);
if (!lists.length) {
  console.error(`no test files under ${roots.join(" ")}`);
  finish(0, 1);
}
const results = await Promise.all(lists.map(async (files, i) => {
  let summary: { passed: number; failed: number } | null = null;
  const prefix = lists.length > 1 ? `[${i + 1}] ` : "";
  const ok = await run(["test", "-A", "--no-check", ...testFlags, ...files], (line) => {
    const match = /^(?:ok|FAILED) \| (\d+) passed(?: \(\d+ steps?\))? \| (\d+) failed/.exec(line.trim());
    if (match) summary = { passed: Number(match[1]), failed: Number(match[2]) };
  }, prefix);
  return { ok, summary: summary as { passed: number; failed: number } | null, prefix };
}));
let passed = 0;
let failed = 0;
for (const { ok, summary, prefix } of results) {
  if (!summary) {
    console.error(`${prefix}deno test printed no summary (load error or crash)`);
    failed += 1;
    continue;
  }
  passed += summary.passed;
  failed += ok ? summary.failed : Math.max(summary.failed, 1);
}
finish(passed, failed);
