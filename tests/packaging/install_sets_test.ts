/**
 * The install split (build/install_sets.ts): running installs the runtime set, building adds the build tools,
 * testing adds the test tools. Each smaller set maps its names exactly as deno.json does, its lockfile is
 * deno.lock pruned (same versions, same integrity, nothing missing), the runtime set holds no build or test
 * tool, and each set resolves everything its programs import.
 */
import assert from "node:assert/strict";
import {
  BUILD_SET,
  FULL_SET,
  type InstallSet,
  type Lockfile,
  packageName,
  readJson,
  resolvedPackages,
  RUNTIME_SET,
} from "../../build/install_sets.ts";
import { graphErrors, moduleGraph } from "./helpers.ts";

interface Config {
  imports: Record<string, string>;
  compilerOptions: Record<string, unknown>;
  tasks?: Record<string, string>;
}

const BUILD_TOOLS = ["esbuild", "tailwindcss", "@tailwindcss/cli", "daisyui", "@fontsource/lato"];
const TEST_TOOLS = ["playwright-core", "axe-core", "s3rver", "@aws-sdk/client-s3", "@aws-sdk/lib-storage"];

const full = await readJson<Config>(FULL_SET.config);
const fullLock = await readJson<Lockfile>(FULL_SET.lock);

/** The npm requirements an import map names, as a lockfile lists them ("npm:hono@4.13.19"). */
const requirements = (imports: Record<string, string>) =>
  [...new Set(Object.values(imports).map((target) => target.replace(/^npm:\//, "npm:").replace(/\/$/, "")))]
    .sort();

for (const set of [RUNTIME_SET, BUILD_SET]) {
  Deno.test(`the ${set.name} set is deno.json's names and deno.lock's packages, pruned`, async () => {
    const config = await readJson<Config>(set.config);
    for (const [name, target] of Object.entries(config.imports)) {
      assert.equal(target, full.imports[name], `${set.config} and deno.json map ${name} differently`);
    }
    for (const option of ["jsx", "jsxImportSource"]) {
      assert.equal(config.compilerOptions[option], full.compilerOptions[option], `compilerOptions.${option}`);
    }
    const lock = await readJson<Lockfile>(set.lock);
    assert.deepEqual(
      lock.workspace.dependencies,
      requirements(config.imports),
      `${set.lock} names other packages`,
    );
    const mine = resolvedPackages(lock);
    const all = resolvedPackages(fullLock);
    for (const [key, entry] of mine) {
      assert.deepEqual(entry, all.get(key), `${key} differs from deno.lock: run \`deno task lock\``);
    }
    for (const [specifier, version] of Object.entries(lock.specifiers)) {
      assert.equal(version, fullLock.specifiers[specifier], specifier);
    }
  });
}

Deno.test("running installs no build or test tool, building no test tool", async () => {
  const names = async (set: InstallSet) =>
    new Set(Object.keys((await readJson<Lockfile>(set.lock)).npm).map(packageName));
  const runtime = await names(RUNTIME_SET);
  const build = await names(BUILD_SET);
  for (const tool of [...BUILD_TOOLS, ...TEST_TOOLS]) {
    assert.ok(!runtime.has(tool), `the runtime set holds ${tool}`);
  }
  for (const tool of TEST_TOOLS) assert.ok(!build.has(tool), `the build set holds ${tool}`);
  for (const tool of BUILD_TOOLS) assert.ok(build.has(tool), `the build set lacks ${tool}`);
  for (const name of runtime) assert.ok(build.has(name), `the build set lacks the runtime package ${name}`);
});

Deno.test("the build set resolves everything the asset build and the islands import", async () => {
  for (const entry of ["build/build.ts", "islands/client.ts", "islands/keyboard/shortcuts.ts"]) {
    assert.deepEqual(graphErrors(await moduleGraph(entry, BUILD_SET.config)), [], entry);
  }
});

Deno.test("the tasks install and run each purpose with its own set", () => {
  const tasks = full.tasks ?? {};
  assert.match(tasks.start, new RegExp(`^deno install --frozen --config ${RUNTIME_SET.config} && `));
  assert.match(
    tasks.build,
    new RegExp(`^deno install --frozen --config ${BUILD_SET.config} && .*build/build\\.ts$`),
  );
  assert.match(tasks.test, /^deno install --frozen && /);
  // deno.json must not install by itself: with "auto", `deno task start` would install the test tools first.
  assert.equal((full as unknown as { nodeModulesDir: string }).nodeModulesDir, "manual");
});
