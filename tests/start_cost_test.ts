/**
 * What a start loads (issue 25: idle memory and the time to the first answer). What a console may never use
 * is loaded by its first use, not at start: read from the module graphs the program and its storage thread
 * load before they run any code, where `import()` marks a point of first use. A module imported by URL
 * (build/compile.ts names each: the console, deck.ts, once the storage thread is starting; page and API areas;
 * the storage's admin API, S3 Select and archive extraction) is not in its importer's graph at all, so each is
 * read as a program of its own.
 */
import assert from "node:assert/strict";
import { moduleGraph } from "./module_graph.ts";
import { MODULES_BY_URL } from "../build/compile.ts";

/** Modules loaded only when used, and what first uses them. */
const LOADED_WHEN_USED: Record<string, string> = {
  "static/gen/assets.ts": "the first request for a file under /static/ (pages need only the names)",
  "islands/lib/i18n/de/mod.ts": "the first request in German",
  "islands/lib/i18n/zh-Hans/mod.ts": "the first request in Chinese",
  "npm:yaml": "operator mode reading a kubeconfig or a manifest",
  "npm:hash-wasm": "the first Argon2id admin payload (mc sends them)",
  "npm:unbzip2-stream": "S3 Select over a BZIP2 object",
  "npm:ldapts": "an LDAP sign-in, or a check of directory sessions, with a directory configured",
  "npm:postgres": "a PostgreSQL notification target, or the log search in PostgreSQL",
  "npm:mysql2": "a MySQL notification target",
  "npm:redis": "a Redis notification target",
  "npm:amqplib": "an AMQP notification target",
  "npm:mqtt": "an MQTT notification target",
  "npm:nats": "a NATS notification target",
};

/** The program, its storage thread and the console as they start. */
const STARTS = ["main.ts", "server/start/deck.ts", "server/storage/worker.ts"];
const programs = await Promise.all(
  [...new Set([...STARTS, ...Object.keys(MODULES_BY_URL)])].map(async (entry) => ({
    entry,
    ...(await moduleGraph(entry)),
  })),
);

Deno.test("neither the program nor its storage thread loads at start what only some consoles use", () => {
  for (const { entry, atStart } of programs.filter((program) => STARTS.includes(program.entry))) {
    const loaded = atStart.filter((module) => module in LOADED_WHEN_USED);
    assert.deepEqual(loaded.map((module) => `${module}: ${LOADED_WHEN_USED[module]}`), [], entry);
  }
});

Deno.test("each of those is still there, loaded by its first use", () => {
  const reachable = new Set(programs.flatMap((program) => program.modules));
  assert.deepEqual(Object.keys(LOADED_WHEN_USED).filter((module) => !reachable.has(module)), []);
});

Deno.test("the console loads sign-in and the shell at start; each page and API area loads with its first request", () => {
  const deck = programs.find((program) => program.entry === "server/start/deck.ts")!;
  const areas = Object.keys(MODULES_BY_URL).filter((module) =>
    /^(routes|server\/console\/api)\//.test(module)
  );
  assert.ok(areas.length >= 27);
  const atStart = new Set(deck.atStart);
  assert.deepEqual(areas.filter((area) => atStart.has(area)), []);
  // What only an area's page uses (its islands, their libraries) is not read at start either.
  for (
    const island of [
      "islands/ObjectBrowser/FolderView.tsx",
      "islands/BucketSummary.tsx",
      "islands/ui/DataTable.tsx",
    ]
  ) {
    assert.ok(!atStart.has(island), `${island} is loaded at start`);
  }
  assert.ok(atStart.has("routes/login.tsx"), "the sign-in page is the first a visitor asks for");
});

Deno.test("the storage thread loads its admin API, S3 Select and archive extraction with their first use", () => {
  const worker = programs.find((program) => program.entry === "server/storage/worker.ts")!;
  const atStart = new Set(worker.atStart);
  for (
    const module of [
      "server/storage/admin/router.ts",
      "server/storage/s3/select.ts",
      "server/storage/s3/object_extract.ts",
    ]
  ) {
    assert.ok(module in MODULES_BY_URL && !atStart.has(module), `${module} is loaded at start`);
  }
});
