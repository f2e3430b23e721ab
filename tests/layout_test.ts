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
 * - Folder-level import circles: none beyond the ones listed in KNOWN_CIRCLES (debt being paid off; the list
 *   may only shrink).
 */
import assert from "node:assert/strict";
import { type Edge, moduleGraph } from "./module_graph.ts";

const ENTRY_POINTS = [
  "main.ts",
  "islands/client.ts",
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
 * Folder-level circles still in the tree, each a debt: a circle means neither folder can be read, tested or
 * replaced without the other. Remove an entry when its circle is gone; never add one.
 */
const KNOWN_CIRCLES: string[][] = [
  ["islands/lib", "islands/lib/api", "islands/ui"],
  [
    "routes",
    "routes/layout",
    "server/console",
    "server/console/api",
    "server/console/k8s",
    "server/console/metrics",
    "server/console/proxy",
    "server/console/render",
    "server/console/services",
    "server/console/services/operator",
    "server/console/session",
    "server/console/ws",
  ],
  ["server/lib/s3", "server/lib/s3/admin", "server/lib/s3/ops"],
  [
    "server/storage",
    "server/storage/admin",
    "server/storage/auth",
    "server/storage/events",
    "server/storage/fs",
    "server/storage/heal",
    "server/storage/iam",
    "server/storage/lifecycle",
    "server/storage/logging",
    "server/storage/metrics",
    "server/storage/notify",
    "server/storage/replication",
    "server/storage/s3",
    "server/storage/select",
    "server/storage/sse",
    "server/storage/streams",
    "server/storage/tiers",
  ],
];

/** Strongly connected folders of the import graph (Tarjan), each sorted, those of two or more folders. */
function folderCircles(): string[][] {
  const next = new Map<string, Set<string>>();
  for (const { from, to } of edges) {
    if (folder(from) === folder(to)) continue;
    next.set(folder(from), (next.get(folder(from)) ?? new Set()).add(folder(to)));
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

Deno.test("no folder-level import circle beyond the known ones, and none grows", () => {
  for (const circle of folderCircles()) {
    const known = KNOWN_CIRCLES.find((k) => circle.every((member) => k.includes(member)));
    assert.ok(known, `a new import circle between folders: ${circle.join(", ")}`);
  }
});
