/**
 * `deno task compile`: builds the assets, then compiles Deck into one executable at dist/deck.
 *
 * The recipe (what the binary embeds and may do) is exported so the image, the service unit and a test use
 * the same: tests/packaging/compile_recipe_test.ts checks it against what the program loads at run time.
 *
 * `deno compile` needs the `denort` base binary, which Deno downloads from the internet unless DENORT_BIN
 * points at one. Without either this fails with that message. Pointing DENORT_BIN at `deno` itself is
 * refused: it "succeeds" but produces a binary that opens a REPL.
 */
import { build } from "./build.ts";
import { RUNTIME_SET } from "./install_sets.ts";

const root = new URL("../", import.meta.url).pathname;

/** The program's entry point, relative to the repository. */
export const ENTRY = "main.ts";

/**
 * Modules the program starts as Workers or imports by URL at their first use. `deno compile` embeds the
 * static and literal dynamic imports of the entry, but not a module named only by
 * `new URL(..., import.meta.url)`: each must be named with --include.
 */
export const MODULES_BY_URL: Record<string, string> = {
  "server/start/deck.ts": "the console, imported by main.ts once the storage thread is starting",
  "server/storage/admin/router.ts":
    "the storage's admin API, imported by its first call (server/storage/identity.ts)",
  "server/storage/s3/select.ts": "S3 Select, imported by its first request (server/storage/s3/handlers.ts)",
  "server/storage/s3/object_extract.ts":
    "archive extraction, imported by its first upload (server/storage/s3/handlers.ts)",
  ...Object.fromEntries(
    [
      "dashboard",
      "iam",
      "buckets",
      "settings",
      "objects",
      "tools",
      "license",
      "operator",
      "tenant_detail",
      "volumes",
    ].map((area) => [`routes/${area}.tsx`, "a page area, imported by its first request (routes/mod.tsx)"]),
  ),
  ...Object.fromEntries(
    [
      "dashboard",
      "users",
      "groups",
      "policies",
      "account",
      "buckets",
      "bucket_features",
      "settings",
      "identity",
      "objects",
      "object_uploads",
      "license",
      "tools",
      "jobs",
      "capabilities",
      "operator",
      "volumes",
    ].map((area) => [
      `server/console/api/${area}.ts`,
      "an API area, imported by its first request (server/console/app/app.ts, operator_mode.ts)",
    ]),
  ),
  "server/storage/worker.ts":
    "the embedded storage's own thread (server/storage/thread.ts), started by main.ts",
  "server/storage/fs/spill_worker.ts": "MD5 of large uploads (server/storage/fs/spill.ts)",
  "server/storage/notify/delivery_worker.ts":
    "notification delivery (server/storage/notify/delivery_thread.ts)",
  "server/storage/replication/send_worker.ts":
    "replication sends (server/storage/replication/send_thread.ts)",
  "server/logsearch/sqlite_worker.ts":
    "the audit log search's SQLite store (server/logsearch/sqlite_thread.ts)",
};

/** What the running program may do; the image and the service unit grant the same and no more. */
export const RUN_PERMISSIONS = ["--allow-net", "--allow-read", "--allow-write", "--allow-env", "--allow-sys"];

/** The `deno compile` arguments: the runtime install set, the permissions, every module named by URL. */
export function compileArgs(output: string): string[] {
  return [
    "compile",
    "--config",
    `${root}${RUNTIME_SET.config}`,
    // The runtime set has no type packages (@types/react): the suite type-checks with the full set.
    "--no-check",
    "--exclude-unused-npm",
    ...RUN_PERMISSIONS,
    ...Object.keys(MODULES_BY_URL).flatMap((path) => ["--include", `${root}${path}`]),
    "--output",
    output,
    `${root}${ENTRY}`,
  ];
}

async function checkDenort(): Promise<void> {
  const denort = Deno.env.get("DENORT_BIN");
  if (!denort) return;
  const name = denort.split("/").pop() ?? "";
  if (!(await Deno.stat(denort).then((s) => s.isFile, () => false))) {
    console.error(`DENORT_BIN=${denort} does not exist.`);
    Deno.exit(1);
  }
  if (name === "deno" || name === "deno.exe") {
    console.error(
      "DENORT_BIN must point at a denort binary, not at deno itself (that builds a REPL, not Deck).",
    );
    Deno.exit(1);
  }
}

if (import.meta.main) {
  await checkDenort();
  await build({ ifStale: true });
  const output = `${root}dist/deck`;
  const args = compileArgs(output);
  console.log(`deno ${args.join(" ")}`);
  const { code } = await new Deno.Command(Deno.execPath(), {
    args,
    cwd: root,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (code !== 0) {
    console.error(
      "\ndeno compile failed. It needs the denort base binary: either internet access (Deno downloads it) or\n" +
        "DENORT_BIN=/path/to/denort matching Deno 2.9.6 for this platform.",
    );
    Deno.exit(code);
  }
  console.log(`built ${output}`);
}
