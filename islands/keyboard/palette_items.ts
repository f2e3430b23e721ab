/**
 * What the command palette offers, read from the console's own API so it shows only what the session may open:
 * the sections of its menu, its buckets, and (where the menu grants those pages) users, groups and policies;
 * the main actions where the account holds the permission they need. Matching ignores case and Unicode forms,
 * so names in any script or with emoji are found as typed.
 */
import { bucketsApi } from "../lib/api/buckets.ts";
import { groupsApi } from "../lib/api/groups.ts";
import { policiesApi } from "../lib/api/policies.ts";
import { usersApi } from "../lib/api/users.ts";
import { isOffered, runCommand } from "../lib/commands.ts";
import type { Nav } from "./keymap.ts";
import { type MessageKey, t } from "../lib/i18n/t.ts";

export type ItemKind = "action" | "page" | "bucket" | "objects" | "user" | "group" | "policy";

const KIND_LABEL: Record<ItemKind, MessageKey> = {
  action: "common.palette.kindAction",
  page: "common.palette.kindPage",
  bucket: "common.palette.kindBucket",
  objects: "common.menu.objectBrowser",
  user: "common.palette.kindUser",
  group: "common.palette.kindGroup",
  policy: "common.palette.kindPolicy",
};

/** What a result is, beside its name ("Bucket"), in the page's language. */
export const kindLabel = (kind: ItemKind) => t(KIND_LABEL[kind]);

export interface PaletteItem {
  key: string;
  label: string;
  kind: ItemKind;
  run: () => void;
}

const ORDER: ItemKind[] = ["action", "page", "bucket", "objects", "user", "group", "policy"];
/** Results shown at once; typing narrows them. */
export const MAX_RESULTS = 60;

const go = (nav: Nav, path: string) => () => location.assign(nav.base + path.replace(/^\/+/, ""));
const allowed = (nav: Nav, route: string) => nav.entries.some((e) => e.route === route);
const here = (nav: Nav) => location.pathname.slice(nav.base.length);

/** The menu's sections. */
export function pageItems(nav: Nav): PaletteItem[] {
  return nav.entries.map((e) => ({
    key: `page:${e.route}`,
    label: e.label,
    kind: "page",
    run: go(nav, e.route),
  }));
}

/** The main actions the session may run; `chooseBucket` starts the upload's second step. */
export function actionItems(
  nav: Nav,
  grants: { createBucket: boolean; createUser: boolean },
  chooseBucket: () => void,
  showHelp: () => void,
): PaletteItem[] {
  const items: PaletteItem[] = [];
  const add = (key: string, label: string, run: () => void) =>
    items.push({ key, label, kind: "action", run });
  if (allowed(nav, "/buckets") && grants.createBucket) {
    add("create-bucket", t("common.palette.createBucket"), () => runCommand("create-bucket", "buckets"));
  }
  if (allowed(nav, "/users") && grants.createUser) {
    add("create-user", t("common.palette.createUser"), () => runCommand("create-user", "users"));
  }
  if (isOffered("upload-files")) {
    add("upload-here", t("common.palette.uploadHere"), () => runCommand("upload-files", here(nav)));
  }
  if (allowed(nav, "/object-browser")) add("upload", t("common.palette.upload"), chooseBucket);
  if (allowed(nav, "/trace")) add("trace", t("common.palette.openTrace"), go(nav, "/trace"));
  add("shortcuts", t("common.palette.shortcuts"), showHelp);
  return items;
}

/** The things the palette jumps to, each source read on its own; `found` is told as each arrives. */
export async function loadItems(
  nav: Nav,
  found: (items: PaletteItem[]) => void,
  failed: (note: string) => void,
): Promise<void> {
  const read = async <T>(what: string, load: () => Promise<T[]>, toItems: (list: T[]) => PaletteItem[]) => {
    try {
      found(toItems(await load()));
    } catch (error) {
      failed(
        t("common.palette.unreadable", { what, why: error instanceof Error ? error.message : String(error) }),
      );
    }
  };
  const enc = encodeURIComponent;
  const sources: Promise<void>[] = [];
  const admin = allowed(nav, "/buckets"), browse = allowed(nav, "/object-browser");
  if (admin || browse) {
    sources.push(
      read(t("common.menu.buckets"), bucketsApi.list, (list) =>
        list.flatMap((b): PaletteItem[] => [
          ...(admin ? [item("bucket", b.name, go(nav, `buckets/${enc(b.name)}/summary`))] : []),
          ...(browse ? [item("objects", b.name, go(nav, `object-browser/${enc(b.name)}`))] : []),
        ])),
    );
  }
  if (allowed(nav, "/users")) {
    sources.push(
      read(
        t("common.menu.users"),
        usersApi.list,
        (list) => list.map((u) => item("user", u.accessKey, go(nav, `users/${enc(u.accessKey)}`))),
      ),
    );
  }
  if (allowed(nav, "/groups")) {
    sources.push(
      read(
        t("common.menu.groups"),
        groupsApi.list,
        (list) => list.map((g) => item("group", g, () => runCommand("open-group", "groups", g))),
      ),
    );
  }
  if (allowed(nav, "/policies")) {
    sources.push(
      read(
        t("common.palette.policies"),
        policiesApi.list,
        (list) => list.map((p) => item("policy", p.name, go(nav, `policies/${enc(p.name)}`))),
      ),
    );
  }
  await Promise.all(sources);
}

/** Buckets the session may upload into, for the upload's second step. */
export async function uploadTargets(): Promise<PaletteItem[]> {
  const names = (await bucketsApi.list()).map((b) => b.name);
  const can = new Set<string>();
  for (let i = 0; i < names.length; i += 100) {
    const chunk = names.slice(i, i + 100);
    const answer = await bucketsApi.hasPermission(
      chunk.map((name, j) => ({ id: String(i + j), action: "s3:PutObject", bucket_name: name })),
    );
    for (const p of answer.permissions) if (p.can) can.add(names[Number(p.id)]);
  }
  return names.filter((n) => can.has(n)).map((name) =>
    item("objects", name, () => runCommand("upload-files", `object-browser/${encodeURIComponent(name)}`))
  );
}

/** Whether the session may create buckets and users (the actions' own permissions). */
export async function actionGrants(nav: Nav): Promise<{ createBucket: boolean; createUser: boolean }> {
  const asked = [
    ...(allowed(nav, "/buckets") ? [{ id: "bucket", action: "s3:CreateBucket" }] : []),
    ...(allowed(nav, "/users") ? [{ id: "user", action: "admin:CreateUser" }] : []),
  ];
  if (asked.length === 0) return { createBucket: false, createUser: false };
  const { permissions } = await bucketsApi.hasPermission(asked);
  const can = (id: string) => permissions.some((p) => p.id === id && p.can);
  return { createBucket: can("bucket"), createUser: can("user") };
}

function item(kind: ItemKind, label: string, run: () => void): PaletteItem {
  return { key: `${kind}:${label}`, label, kind, run };
}

const fold = (text: string) => text.normalize("NFKC").toLocaleLowerCase();

/** How well a label matches: 0 exact, 1 prefix, 2 a word's prefix, 3 inside, 4 letters in order; null none. */
export function matchScore(label: string, query: string): number | null {
  const l = fold(label), q = fold(query.trim());
  if (q === "") return 3;
  if (l === q) return 0;
  if (l.startsWith(q)) return 1;
  if (l.split(/[\s/_.:-]+/).some((word) => word.startsWith(q))) return 2;
  if (l.includes(q)) return 3;
  let at = 0;
  for (const ch of q) {
    at = l.indexOf(ch, at);
    if (at < 0) return null;
    at += ch.length;
  }
  return q.length > 1 ? 4 : null;
}

/** The items matching the query, best first, then by kind and name; at most MAX_RESULTS. */
export function rankItems(items: PaletteItem[], query: string): PaletteItem[] {
  return items
    .map((it) => ({ it, score: matchScore(it.label, query) }))
    .filter((x): x is { it: PaletteItem; score: number } => x.score !== null)
    .sort((a, b) =>
      a.score - b.score || ORDER.indexOf(a.it.kind) - ORDER.indexOf(b.it.kind) ||
      a.it.label.localeCompare(b.it.label)
    )
    .slice(0, MAX_RESULTS)
    .map((x) => x.it);
}
