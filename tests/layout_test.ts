/**
 * The layout's rules, read from the real module graph (`deno info --json`, as the program and its threads
 * load it), so a change that breaks them fails here rather than in a reader's head:
 *
 * - server/storage/ and server/logsearch/ are programs of their own: they import only server/lib/.
 * - server/lib/ is shared by all three programs and imports nothing outside itself.
 * - The console (server/console/, routes/) never imports the storage, the log search or server/start/: it
 *   reaches them over the wire. Only main.ts and server/start/ start them.
 * - Islands import only islands/, the contract (server/lib/contract/) and the policy validator.
 * - The storage's threads load no Hono: the HTTP kernel they share with the console is plain node:http.
 * - The console's and the islands' layers import only downward (LAYERS): app, the areas (api, ws, proxy, the
 *   pages), deps.ts, services, session, k8s/metrics/license/render, config/http; islands, ui, lib/api, lib.
 * - The storage's folders are layers, each importing only the ones below it (STORAGE_LAYERS).
 * - No import circle between folders.
 */
import assert from "node:assert/strict";
import { type Edge, moduleGraph } from "./module_graph.ts";

const ENTRY_POINTS = [
  "main.ts",
  "islands/client.ts",
  "islands/keyboard/shortcuts.ts",
  "server/storage/standalone.ts",
  "server/storage/worker.ts",
  "server/storage/notify/delivery_worker.ts",
  "server/storage/fs/spill_worker.ts",
  "server/storage/replication/send_worker.ts",
];
const STORAGE_THREADS = ENTRY_POINTS.filter((path) => path.startsWith("server/storage/"));

const graphs = await Promise.all(
  ENTRY_POINTS.map(async (entry) => ({ entry, ...(await moduleGraph(entry)) })),
);
const edges = [...new Map(graphs.flatMap((g) => g.edges).map((e) => [`${e.from} ${e.to}`, e])).values()];
const folder = (path: string) => path.slice(0, path.lastIndexOf("/")) || ".";
const under = (path: string, ...folders: string[]) => folders.some((f) => path.startsWith(`${f}/`));

function violations(rule: (edge: Edge) => boolean): string[] {
  return edges.filter(rule).map((e) => `${e.from} -> ${e.to}`).sort();
}

Deno.test("the storage and the log search import only the shared libraries", () => {
  assert.deepEqual(
    violations((e) =>
      under(e.from, "server/storage", "server/logsearch") && !under(e.to, "server/lib") &&
      folder(e.from).split("/").slice(0, 2).join("/") !== folder(e.to).split("/").slice(0, 2).join("/")
    ),
    [],
  );
});

Deno.test("the shared libraries import nothing outside themselves", () => {
  assert.deepEqual(violations((e) => under(e.from, "server/lib") && !under(e.to, "server/lib")), []);
});

Deno.test("the console reaches the storage and the log search only over the wire", () => {
  assert.deepEqual(
    violations((e) =>
      under(e.from, "server/console", "routes", "islands") &&
      under(e.to, "server/storage", "server/logsearch", "server/start")
    ),
    [],
  );
});

Deno.test("islands import only islands, the contract and the policy validator", () => {
  assert.deepEqual(
    violations((e) =>
      under(e.from, "islands") && !under(e.to, "islands", "server/lib/contract") &&
      e.to !== "server/lib/policy/validate.ts"
    ),
    [],
  );
});

Deno.test("the storage's threads load no Hono", () => {
  for (const { entry, modules } of graphs.filter((g) => STORAGE_THREADS.includes(g.entry))) {
    assert.deepEqual(modules.filter((s) => /hono/.test(s)), [], entry);
  }
});

/**
 * Layers, top to bottom: a module imports from its own layer or the ones below, never above, so each layer
 * can be read and tested with only what is under it. A folder belongs to the layer of the deepest folder
 * named that holds it (services/operator is in services' layer, routes/layout in the areas').
 */
const LAYERS: Record<string, string[][]> = {
  "the console": [
    ["server/console/app"], // the Hono app: middleware in order, every area mounted
    ["server/console/api", "server/console/ws", "server/console/proxy", "routes"], // the areas
    ["server/console"], // deps.ts: what the areas receive (the layers below take only what they use)
    ["server/console/services"],
    ["server/console/session"],
    ["server/console/k8s", "server/console/metrics", "server/console/license", "server/console/render"],
    ["server/console/config", "server/console/http"],
  ],
  "the islands": [["islands"], ["islands/ui"], ["islands/lib/api"], ["islands/lib"]],
};

function layerOf(layers: string[][], path: string): number | null {
  const dir = folder(path);
  // The deepest folder named owns it: islands/lib/api before islands/lib, services before server/console.
  const named = layers.flat().filter((f) => dir === f || dir.startsWith(`${f}/`))
    .sort((a, b) => b.length - a.length)[0];
  return named === undefined ? null : layers.findIndex((layer) => layer.includes(named));
}

for (const [stack, layers] of Object.entries(LAYERS)) {
  Deno.test(`the layers of ${stack} import only downward`, () => {
    assert.deepEqual(
      violations((e) => {
        const [from, to] = [layerOf(layers, e.from), layerOf(layers, e.to)];
        return from !== null && to !== null && to < from;
      }),
      [],
    );
  });
}

/**
 * The storage's folders bottom-up (docs/notes.md, "layers and the write path"): a folder imports only folders
 * of a lower layer, so each can be read and tested with what is below it. The root holds the wiring on top.
 */
const STORAGE_LAYERS = [
  ["core"],
  ["events"],
  ["streams"],
  ["fs"],
  ["auth", "iam", "metrics", "notify", "select", "sse", "tiers"],
  ["config", "lifecycle", "replication"],
  ["logging"],
  ["heal"],
  ["write"],
  ["admin", "s3"],
  [""],
];

Deno.test("the storage's folders import only the layers below them", () => {
  const layerOf = (path: string) => {
    const name = folder(path).slice("server/storage".length).replace(/^\//, "").split("/")[0];
    const layer = STORAGE_LAYERS.findIndex((names) => names.includes(name));
    assert.ok(layer >= 0, `server/storage/${name} has no layer: place it in STORAGE_LAYERS`);
    return layer;
  };
  assert.deepEqual(
    violations((e) =>
      under(e.from, "server/storage") && under(e.to, "server/storage") && folder(e.from) !== folder(e.to) &&
      layerOf(e.to) >= layerOf(e.from)
    ),
    [],
  );
});

/**
 * Strongly connected groups of the import graph (Tarjan), each sorted, those of two or more groups: folders
 * by default, or files with `groupOf` the identity.
 */
function folderCircles(groupOf: (path: string) => string = folder): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (groupOf(from) === groupOf(to)) continue;
    next.set(groupOf(from), (next.get(groupOf(from)) ?? new Set()).add(groupOf(to)));
  }
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [];
  const onStack = new Set<string>(), circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const circle: string[] = [];
    let member;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      circle.push(member);
    } while (member !== node);
    if (circle.length > 1) circles.push(circle.sort());
  };
  for (const node of next.keys()) if (!index.has(node)) visit(node);
  return circles;
}

Deno.test("no import circle between folders: a circle means neither side can be read or replaced alone", () => {
  assert.deepEqual(folderCircles(), []);
});

Deno.test("no two of the storage's files import each other, not even for a type", () => {
  const storageCircles = folderCircles((path) => path).filter((c) =>
    c.some((f) => under(f, "server/storage"))
  );
  assert.deepEqual(storageCircles, []);
});
