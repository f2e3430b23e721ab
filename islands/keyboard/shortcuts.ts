/**
 * The keyboard shortcuts of every signed-in page, loaded on each as a small script of its own (no React):
 * Ctrl+K (⌘K on a Mac) opens the command palette, `?` the shortcuts help, `/` focuses the page's search or
 * filter, `g` then a letter goes to a section, and ↓ or ↑ with nothing focused moves into the page's table
 * (whose rows then take ↑ ↓ Enter Space and Delete, islands/ui/table_keys.ts). The palette and the help load
 * on first use. No shortcut takes a key while a field has focus or a dialog is open.
 */
import { goTarget, isTyping, modalOpen, readNav } from "./keymap.ts";

/** How long `g` waits for its letter. */
const GO_WINDOW_MS = 1500;

const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
let goPressedAt = 0;

const overlays = () => import("./overlays.tsx");
/** Keys typed while the palette's script loads (first use), handed to it as its first query; null when idle. */
let typedAhead: string | null = null;

function openPalette(): void {
  if (typedAhead !== null) return;
  typedAhead = "";
  // Handed over once the palette's field has focus: keys typed until then are kept here, not lost.
  const takeTyped = () => {
    const typed = typedAhead ?? "";
    typedAhead = null;
    return typed;
  };
  overlays().then((m) => m.openPalette(takeTyped), () => (typedAhead = null));
}

function visible(el: HTMLElement): boolean {
  return el.offsetParent !== null && !el.closest("dialog");
}

function focusSearch(): boolean {
  const field = [...document.querySelectorAll<HTMLInputElement>("main input[type=search]")].find(visible);
  if (!field) return false;
  field.focus();
  field.select();
  return true;
}

function focusTable(last: boolean): boolean {
  const rows = [...document.querySelectorAll<HTMLElement>("main tr[data-row]")].filter(visible);
  const row = last ? rows[rows.length - 1] : rows[0];
  row?.focus();
  return !!row;
}

function onKeyDown(e: KeyboardEvent): void {
  if (e.defaultPrevented || e.isComposing) return;
  if (typedAhead !== null && e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
    typedAhead += e.key;
    e.preventDefault();
    return;
  }
  // ⌘K on a Mac, where Ctrl+K deletes to the end of the line in a field; Ctrl+K elsewhere.
  if (e.key.toLowerCase() === "k" && (isMac ? e.metaKey : e.ctrlKey) && !e.altKey && !e.shiftKey) {
    if (modalOpen()) return;
    e.preventDefault();
    openPalette();
    return;
  }
  if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target) || modalOpen()) return;
  if (goPressedAt && Date.now() - goPressedAt < GO_WINDOW_MS) {
    goPressedAt = 0;
    const nav = readNav();
    const entry = goTarget(nav, e.key);
    if (entry) {
      e.preventDefault();
      location.assign(nav.base + entry.route.slice(1));
    }
    return;
  }
  const nothingFocused = document.activeElement === document.body || document.activeElement === null;
  let handled = false;
  if (e.key === "?") handled = (overlays().then((m) => m.openHelp()), true);
  else if (e.key === "/") handled = focusSearch();
  else if (e.key === "g") goPressedAt = Date.now();
  else if ((e.key === "ArrowDown" || e.key === "ArrowUp") && nothingFocused) {
    handled = focusTable(e.key === "ArrowUp");
  }
  if (handled) e.preventDefault();
}

document.addEventListener("keydown", onKeyDown);
// The sidebar's "Go to…" button opens the palette for those who reach for the mouse.
document.addEventListener("click", (e) => {
  if (e.target instanceof Element && e.target.closest("[data-open-palette]")) openPalette();
});
