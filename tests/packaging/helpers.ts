/**
 * What the packaging tests share: a copy of the application as a fresh clone holds it (no node_modules),
 * a Deno cache holding only the runtime set's packages, running programs, and whether this machine can make
 * a network namespace.
 */
import { copyPath, copyRuntimePackages } from "../../build/install_sets.ts";

export { copyPath };

export const ROOT = new URL("../../", import.meta.url).pathname;

/** What a clone holds that running or building Deck reads (tests, docs and node_modules left out). */
const APP_ENTRIES = [
  "main.ts",
  "deno.json",
  "deno.lock",
  "deno.runtime.json",
  "deno.runtime.lock",
  "deno.build.json",
  "deno.build.lock",
  "server",
  "routes",
  "islands",
  "static",
  "build",
];

/** Copies the application (with the assets built in this checkout) into `dest`. */
export async function copyApp(dest: string): Promise<void> {
  await Deno.mkdir(dest, { recursive: true });
  for (const entry of APP_ENTRIES) await copyPath(`${ROOT}${entry}`, `${dest}/${entry}`);
}

/**
 * Fills a new Deno cache at `denoDir` with the runtime lockfile's packages and nothing else: a start that
 * needed any other package, or the registry, fails there.
 */
export async function runtimeOnlyDenoDir(denoDir: string): Promise<void> {
  const missing = await copyRuntimePackages(denoDir);
  if (missing.length) throw new Error(`not in this machine's Deno cache: ${missing.join(", ")}`);
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end (or kills it when `signal` aborts) and returns its exit code and output. */
export async function run(
  program: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<Ran> {
  const out = await new Deno.Command(program, { args, ...options, stdout: "piped", stderr: "piped" })
    .output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

/** Why this machine cannot give a process a network namespace of its own with only loopback, or null. */
export async function noNetworkNamespace(): Promise<string | null> {
  for (const program of ["unshare", "nsenter", "ip"]) {
    const found = await run("sh", ["-c", `command -v ${program}`]).catch(() => null);
    if (!found || found.code !== 0) return `${program} is not installed (util-linux, iproute2)`;
  }
  const trial = await run("unshare", ["-n", "ip", "link", "set", "lo", "up"]);
  if (trial.code !== 0) return `unshare -n is refused here: ${trial.stderr.trim()}`;
  return null;
}

/** The process ids below `pid` (children, their children, ...), read from /proc. */
export async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const stat = await Deno.readTextFile(`/proc/${entry.name}/stat`).catch(() => "");
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    parents.set(Number(entry.name), Number(fields[1]));
  }
  const found: number[] = [];
  const visit = (parent: number) => {
    for (const [child, of] of parents) {
      if (of === parent) {
        found.push(child);
        visit(child);
      }
    }
  };
  visit(pid);
  return found;
}

export interface GraphModule {
  specifier: string;
  kind?: string;
  error?: string;
  dependencies?: { specifier: string; isDynamic?: boolean; code?: { specifier?: string; error?: string } }[];
}

/** The module graph Deno builds from `entry` with `config` (`deno info --json`), as `deno compile` sees it. */
export async function moduleGraph(entry: string, config: string): Promise<GraphModule[]> {
  const info = await run(Deno.execPath(), ["info", "--json", "--config", config, entry], {
    cwd: ROOT,
    env: { NO_COLOR: "1" },
  });
  if (info.code !== 0) throw new Error(`deno info --config ${config} ${entry} failed:\n${info.stderr}`);
  return JSON.parse(info.stdout).modules;
}

/** Problems Deno found while resolving a graph: modules it could not load, imports it could not resolve. */
export function graphErrors(modules: GraphModule[]): string[] {
  const errors: string[] = [];
  for (const module of modules) {
    if (module.error) errors.push(`${module.specifier}: ${module.error}`);
    for (const dep of module.dependencies ?? []) {
      if (dep.code?.error) errors.push(`${module.specifier} imports ${dep.specifier}: ${dep.code.error}`);
    }
  }
  return errors;
}
