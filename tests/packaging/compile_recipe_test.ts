/**
 * `deno task compile` embeds what the program loads at run time. `deno compile` itself cannot run here (it
 * downloads its denort base binary), so this checks the recipe: the module graph it would embed (the entry's
 * static and literal dynamic imports, with the runtime config) and its --include list, against every module
 * the tree starts or imports by URL (`new Worker(new URL(...))`, `import(new URL(...).href)`) and every
 * dynamic import.
 */
import assert from "node:assert/strict";
import { build } from "../../build/build.ts";
import { compileArgs, ENTRY, MODULES_BY_URL, RUN_PERMISSIONS } from "../../build/compile.ts";
import { RUNTIME_SET } from "../../build/install_sets.ts";
import { graphErrors, type GraphModule, moduleGraph, ROOT } from "./helpers.ts";

/** Source text with comments blanked out, so a comment that mentions `import()` is not taken for one. */
function code(source: string): string {
  return source.replace(
    /("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g,
    (match, literal) => literal ?? " ".repeat(match.length),
  );
}

/** The modules whose computed import() takes a URL built from `new URL("literal", import.meta.url)`. */
const IMPORTS_BY_URL = [
  "main.ts",
  "server/console/http/lazy_areas.ts",
  "server/storage/identity.ts",
  "server/storage/s3/handlers.ts",
];

const localPath = (specifier: string) => new URL(specifier).pathname.slice(ROOT.length);

/** Every local module the binary would embed: the entry's graph and the graph of each included module. */
async function embeddedModules(): Promise<Map<string, GraphModule>> {
  const modules = new Map<string, GraphModule>();
  for (const root of [ENTRY, ...Object.keys(MODULES_BY_URL)]) {
    const graph = await moduleGraph(root, RUNTIME_SET.config);
    assert.deepEqual(graphErrors(graph), [], `${root} does not resolve with ${RUNTIME_SET.config}`);
    for (const module of graph) {
      if (module.specifier.startsWith(`file://${ROOT}`)) modules.set(localPath(module.specifier), module);
    }
  }
  return modules;
}

Deno.test("the compile recipe embeds every module the program starts or imports at run time", async (t) => {
  await build({ ifStale: true }); // the graph holds the built assets module
  const modules = await embeddedModules();
  const urlTargets = new Map<string, string>();
  const computedImports: string[] = [];
  const workersWithoutUrl: string[] = [];
  for (const path of modules.keys()) {
    const source = code(await Deno.readTextFile(`${ROOT}${path}`));
    for (const match of source.matchAll(/new URL\(\s*(["'`])([^"'`]+)\1\s*,\s*import\.meta\.url\s*\)/g)) {
      if (match[2].endsWith("/")) continue; // a folder, to name paths by: nothing to embed
      urlTargets.set(new URL(match[2], `file://${ROOT}${path}`).pathname.slice(ROOT.length), path);
    }
    for (const match of source.matchAll(/\bimport\(\s*(.)/g)) {
      if (!/["']/.test(match[1]) && !IMPORTS_BY_URL.includes(path)) computedImports.push(path);
    }
    if (/new Worker\(/.test(source) && !/new URL\(\s*["'`]/.test(source)) workersWithoutUrl.push(path);
  }

  await t.step("each module started by URL is named with --include", () => {
    assert.ok(urlTargets.size >= 4, "the storage thread and its three workers are started by URL");
    assert.ok(urlTargets.has("server/start/deck.ts"), "main.ts imports the console by URL");
    for (const [target, from] of urlTargets) {
      assert.ok(
        target in MODULES_BY_URL,
        `${from} starts ${target}, which build/compile.ts does not --include`,
      );
    }
  });

  await t.step("every --include is a module the program starts", async () => {
    for (const path of Object.keys(MODULES_BY_URL)) {
      assert.ok(await Deno.stat(`${ROOT}${path}`).then((s) => s.isFile, () => false), `${path} is missing`);
      assert.ok(urlTargets.has(path), `${path} is included but nothing starts it`);
    }
    const args = compileArgs("/tmp/deck");
    const included = args.flatMap((arg, i) => args[i - 1] === "--include" ? [arg.slice(ROOT.length)] : []);
    assert.deepEqual(included.sort(), Object.keys(MODULES_BY_URL).sort());
  });

  await t.step("dynamic imports name their module literally, so the graph holds them", () => {
    assert.deepEqual(computedImports, [], "a computed import() is invisible to deno compile");
    assert.deepEqual(
      workersWithoutUrl,
      [],
      "a Worker started from a computed URL is invisible to the recipe",
    );
    const dynamic = [...modules.values()].flatMap((m) => (m.dependencies ?? []).filter((d) => d.isDynamic));
    for (const dep of dynamic) {
      const target = dep.code?.specifier ?? "";
      if (target.startsWith("file://")) {
        assert.ok(modules.has(localPath(target)), `${target} is not embedded`);
      }
    }
    for (const notifyTarget of ["postgresql", "mysql", "redis", "amqp", "mqtt", "nats"]) {
      assert.ok(
        modules.has(`server/storage/notify/${notifyTarget}.ts`),
        `${notifyTarget} target not embedded`,
      );
    }
  });

  await t.step("the built assets are part of the graph, and start runs the same entry and set", async () => {
    assert.ok(modules.has("static/gen/assets.ts"), "the assets module is not embedded");
    const { tasks } = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
    assert.match(tasks.start, new RegExp(`deno run -A --config ${RUNTIME_SET.config} build/start\\.ts$`));
    assert.match(await Deno.readTextFile(`${ROOT}build/start.ts`), /await import\("\.\.\/main\.ts"\)/);
    assert.deepEqual(RUN_PERMISSIONS.filter((p) => compileArgs("/tmp/deck").includes(p)), RUN_PERMISSIONS);
  });
});
