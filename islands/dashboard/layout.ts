/**
 * The widget grid's layout rules (spec 1 §3, §9): one item per panel in an 8-column grid, saved in local
 * storage as base64 JSON under `dashboardConfig`. A saved layout is discarded (the default is used) when it
 * is empty, an item lacks minW, the panel count differs, or it is not readable at all. Moving or resizing a
 * panel pushes the panels it lands on downwards, then every panel rises as far as it can (vertical
 * compaction); each tab's panels form their own grid.
 */
import { DEFAULT_LAYOUT, GRID_COLUMNS, type LayoutItem } from "../../server/lib/contract/dashboard.ts";

export const LAYOUT_STORAGE_KEY = "dashboardConfig";

const isCount = (n: unknown, min: number) =>
  typeof n === "number" && Number.isInteger(n) && n >= min && n <= 1000;

/** The saved layout when it passes the spec's checks and names exactly the known panels, else null. */
export function parseSavedLayout(saved: string | null): LayoutItem[] | null {
  if (!saved) return null;
  let items: unknown;
  try {
    items = JSON.parse(atob(saved));
  } catch {
    return null;
  }
  if (!Array.isArray(items) || items.length === 0 || items.length !== DEFAULT_LAYOUT.length) return null;
  const known = new Set(DEFAULT_LAYOUT.map((i) => i.i));
  const seen = new Set<string>();
  for (const item of items as Partial<LayoutItem>[]) {
    if (!item || typeof item !== "object" || !item.minW) return null;
    if (typeof item.i !== "string" || !known.has(item.i) || seen.has(item.i)) return null;
    if (
      !isCount(item.x, 0) || !isCount(item.y, 0) || !isCount(item.w, 1) || !isCount(item.h, 1) ||
      !isCount(item.minW, 1)
    ) return null;
    if (item.x! + item.w! > GRID_COLUMNS) return null;
    seen.add(item.i);
  }
  return (items as LayoutItem[]).map((i) => ({
    i: i.i,
    x: i.x,
    y: i.y,
    w: i.w,
    h: i.h,
    minW: i.minW,
    moved: !!i.moved,
    static: !!i.static,
  }));
}

export function loadLayout(storage: Storage): LayoutItem[] {
  let saved: string | null = null;
  try {
    saved = storage.getItem(LAYOUT_STORAGE_KEY);
  } catch {
    // storage blocked: the default layout
  }
  const parsed = parseSavedLayout(saved);
  if (!parsed && saved !== null) storage.removeItem(LAYOUT_STORAGE_KEY);
  return parsed ?? DEFAULT_LAYOUT;
}

export function saveLayout(storage: Storage, items: LayoutItem[]): void {
  try {
    storage.setItem(LAYOUT_STORAGE_KEY, btoa(JSON.stringify(items)));
  } catch {
    // full or blocked storage: the layout lasts until the page is left
  }
}

const collides = (a: LayoutItem, b: LayoutItem) =>
  a.i !== b.i && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const byPosition = (a: LayoutItem, b: LayoutItem) => a.y - b.y || a.x - b.x;

/** Moves every panel up as far as it goes, top rows first. */
export function compact(items: LayoutItem[]): LayoutItem[] {
  const placed: LayoutItem[] = [];
  for (const item of [...items].sort(byPosition)) {
    const next = { ...item };
    while (next.y > 0 && !placed.some((p) => collides(p, { ...next, y: next.y - 1 }))) next.y--;
    placed.push(next);
  }
  return placed;
}

/**
 * Puts panel `id` at a new position and size (clamped to the grid and its minW), pushes whatever it
 * overlaps downwards, and compacts. `items` are one tab's panels.
 */
export function placeItem(
  items: LayoutItem[],
  id: string,
  target: { x: number; y: number; w: number; h: number },
): LayoutItem[] {
  const current = items.find((i) => i.i === id);
  if (!current) return items;
  const w = Math.min(GRID_COLUMNS, Math.max(current.minW, Math.round(target.w)));
  const moved: LayoutItem = {
    ...current,
    w,
    h: Math.max(1, Math.round(target.h)),
    x: Math.min(GRID_COLUMNS - w, Math.max(0, Math.round(target.x))),
    y: Math.max(0, Math.round(target.y)),
    moved: true,
  };
  const placed = [moved];
  for (const other of items.filter((i) => i.i !== id).sort(byPosition)) {
    const next = { ...other };
    let blocker = placed.find((p) => collides(p, next));
    while (blocker) {
      next.y = blocker.y + blocker.h;
      blocker = placed.find((p) => collides(p, next));
    }
    placed.push(next);
  }
  return compact(placed);
}

/** Replaces one tab's items inside the full layout, keeping the full layout's order. */
export function mergeItems(all: LayoutItem[], changed: LayoutItem[]): LayoutItem[] {
  const byId = new Map(changed.map((i) => [i.i, i]));
  return all.map((i) => byId.get(i.i) ?? i);
}
