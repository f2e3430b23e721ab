/**
 * The three install sets and their lockfiles. Deno installs every package its lockfile names (neither
 * `deno install --entrypoint` nor `--prod` prunes a deno.json project in Deno 2.9.6), so each purpose has a
 * config of its own whose lockfile holds only what that purpose loads:
 *
 *   deno.runtime.json + deno.runtime.lock   running: the server and the browser packages it renders
 *   deno.build.json   + deno.build.lock     building the assets: the runtime set plus esbuild, tailwind, ...
 *   deno.json         + deno.lock           everything: the two above plus the test tools (type check, lint)
 *
 * deno.lock stays the source of truth: `deno task lock` derives the two smaller lockfiles from it, so every
 * package resolves to the same version and integrity in all three.
 *
 * Installing a set removes from node_modules what the set does not name, so the runtime set keeps its
 * packages in Deno's cache instead (`"nodeModulesDir": "none"`, as `deno compile` resolves them): starting
 * Deck in a checkout leaves the test tools in node_modules alone.
 */

export interface InstallSet {
  name: string;
  config: string;
  lock: string;
}

export const RUNTIME_SET: InstallSet = {
  name: "runtime",
  config: "deno.runtime.json",
  lock: "deno.runtime.lock",
};
export const BUILD_SET: InstallSet = { name: "build", config: "deno.build.json", lock: "deno.build.lock" };
export const FULL_SET: InstallSet = { name: "test", config: "deno.json", lock: "deno.lock" };

/** The lockfile fields this module reads (Deno lockfile version 5). */
export interface Lockfile {
  version: string;
  specifiers: Record<string, string>;
  npm: Record<string, { integrity: string; dependencies?: string[]; optionalDependencies?: string[] }>;
  workspace: { dependencies: string[] };
}

const root = new URL("../", import.meta.url).pathname;

export async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await Deno.readTextFile(`${root}${file}`));
}

/** "@scope/name@1.2.3_peer@4.5.6" → "@scope/name". */
export function packageName(key: string): string {
  return key.slice(0, key.indexOf("@", 1));
}

/**
 * A lockfile's packages with each dependency spelled out in full: a lockfile names a dependency by its bare
 * name when it holds one version of it, so the same package reads differently in a smaller lockfile.
 */
export function resolvedPackages(lock: Lockfile): Map<string, { integrity: string; dependencies: string[] }> {
  const byName = new Map<string, string[]>();
  for (const key of Object.keys(lock.npm)) {
    byName.set(packageName(key), [...(byName.get(packageName(key)) ?? []), key]);
  }
  const full = (ref: string): string => {
    if (ref in lock.npm) return ref;
    const keys = byName.get(ref) ?? [];
    if (keys.length !== 1) throw new Error(`dependency ${ref} does not name one package of the lockfile`);
    return keys[0];
  };
  const out = new Map<string, { integrity: string; dependencies: string[] }>();
  for (const [key, entry] of Object.entries(lock.npm)) {
    const refs = [...(entry.dependencies ?? []), ...(entry.optionalDependencies ?? [])];
    out.set(key, { integrity: entry.integrity, dependencies: refs.map(full).sort() });
  }
  return out;
}

/** Where this Deno keeps npm packages (`deno info --json`). */
async function npmCache(): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], stdout: "piped" })
    .output();
  return JSON.parse(new TextDecoder().decode(stdout)).npmCache;
}

/** Copies a file, or a folder with everything in it. */
export async function copyPath(from: string, to: string): Promise<void> {
  const info = await Deno.stat(from);
  if (!info.isDirectory) return await Deno.copyFile(from, to);
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    await copyPath(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

/**
 * Copies the runtime lockfile's packages from this machine's Deno cache into the cache at `denoDir` (the
 * image's, a test's), so it holds what running needs and nothing else. Returns the names it could not find
 * there; `deno install --config deno.runtime.json` with DENO_DIR=`denoDir` fetches those.
 */
export async function copyRuntimePackages(denoDir: string): Promise<string[]> {
  const source = `${await npmCache()}/registry.npmjs.org`;
  const target = `${denoDir}/npm/registry.npmjs.org`;
  const lock = await readJson<Lockfile>(RUNTIME_SET.lock);
  const names = new Set<string>();
  const missing: string[] = [];
  for (const key of Object.keys(lock.npm)) {
    const name = packageName(key);
    const version = key.slice(name.length + 1).split("_")[0];
    try {
      await copyPath(`${source}/${name}/${version}`, `${target}/${name}/${version}`);
      names.add(name);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      missing.push(`${name}@${version}`);
    }
  }
  // Deno writes a package's registry.json only when it had to ask the registry; installs resolved from the
  // lockfile alone (a fresh machine) have none, and Deno needs none to run from the lockfile.
  for (const name of names) {
    try {
      await copyPath(`${source}/${name}/registry.json`, `${target}/${name}/registry.json`);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return missing;
}

/** Writes `set`'s lockfile: deno.lock pruned by Deno itself to what `set`'s imports need. */
export async function deriveLock(set: InstallSet, deno = Deno.execPath()): Promise<void> {
  await Deno.copyFile(`${root}${FULL_SET.lock}`, `${root}${set.lock}`);
  const { code, stderr } = await new Deno.Command(deno, {
    args: ["install", "--config", set.config, "--lockfile-only", "--frozen=false"],
    cwd: root,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (code !== 0) {
    throw new Error(`deno install --lockfile-only failed:\n${new TextDecoder().decode(stderr)}`);
  }
}

if (import.meta.main) {
  const full = await readJson<{ imports: Record<string, string> }>(FULL_SET.config);
  for (const set of [RUNTIME_SET, BUILD_SET]) {
    const { imports } = await readJson<{ imports: Record<string, string> }>(set.config);
    for (const [name, target] of Object.entries(imports)) {
      if (full.imports[name] !== target) {
        console.error(
          `${set.config} maps ${name} to ${target}, deno.json to ${full.imports[name]}: make them equal`,
        );
        Deno.exit(1);
      }
    }
    await deriveLock(set);
    console.log(`${set.lock}: ${Object.keys((await readJson<Lockfile>(set.lock)).npm).length} packages`);
  }
}
