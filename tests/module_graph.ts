/**
 * The module graph of an entry point as Deno loads it (`deno info --json`), for tests that check what the
 * program imports: every edge between the project's own modules, and every specifier loaded, each marked
 * with whether it is only reached through an `import()` (loaded at first use, not at start).
 */
import assert from "node:assert/strict";

export const ROOT = new URL("../", import.meta.url);

export interface Edge {
  from: string;
  to: string;
  /** Reached through `import()`: loaded when that code first runs, not with its importer. */
  dynamic: boolean;
}

export interface ModuleGraph {
  /** Edges between project modules, as project-relative paths. */
  edges: Edge[];
  /** Every module of the graph: project-relative paths for the project's own, specifiers for the rest. */
  modules: string[];
  /** The modules loaded before the entry point runs (reached without any `import()`). */
  atStart: string[];
}

interface DenoInfo {
  roots: string[];
  modules: {
    specifier: string;
    dependencies?: {
      isDynamic?: boolean;
      code?: { specifier: string };
      type?: { specifier: string };
    }[];
  }[];
  redirects?: Record<string, string>;
}

/** Project-relative path of a local module; npm packages by name ("npm:yaml"); anything else as it is. */
function nameOf(specifier: string): string {
  if (specifier.startsWith(ROOT.href)) return specifier.slice(ROOT.href.length);
  const npm = /^npm:\/?(@[^/@]+\/[^/@]+|[^/@]+)/.exec(specifier);
  return npm ? `npm:${npm[1]}` : specifier;
}

/** Reads the graph of `entry` (a project-relative path). */
export async function moduleGraph(entry: string): Promise<ModuleGraph> {
  const output = await new Deno.Command(Deno.execPath(), {
    // The runtime set, as the program loads it: with deno.json's manual node_modules Deno reports packages
    // as files there, not as npm: specifiers.
    args: ["info", "--json", "--config", "deno.runtime.json", entry],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const info: DenoInfo = JSON.parse(new TextDecoder().decode(output.stdout));
  const resolve = (specifier: string) => nameOf(info.redirects?.[specifier] ?? specifier);
  const edges: Edge[] = [];
  const next = new Map<string, string[]>();
  for (const module of info.modules) {
    const from = resolve(module.specifier);
    for (const dependency of module.dependencies ?? []) {
      const code = dependency.code?.specifier;
      if (code && !dependency.isDynamic) next.set(from, [...(next.get(from) ?? []), resolve(code)]);
      for (const target of [code, dependency.type?.specifier]) {
        if (!target?.startsWith(ROOT.href) || !module.specifier.startsWith(ROOT.href)) continue;
        edges.push({ from, to: resolve(target), dynamic: dependency.isDynamic ?? false });
      }
    }
  }
  const atStart = new Set([resolve(info.roots[0])]);
  for (const module of atStart) for (const target of next.get(module) ?? []) atStart.add(target);
  return { edges, modules: info.modules.map((m) => resolve(m.specifier)), atStart: [...atStart] };
}
