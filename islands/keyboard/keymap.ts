/**
 * The console's keyboard map, shared by the shortcut listener every signed-in page loads and the help overlay
 * that shows it: which letter after `g` goes to which section, and what counts as typing in a field (where no
 * shortcut takes a key). The sections a session may open come from the page itself (`#deck-nav`, rendered
 * with the menu), so shortcuts offer exactly what the menu does.
 */

export interface NavEntry {
  label: string;
  /** The route under the console's base, e.g. "/buckets". */
  route: string;
}

export interface Nav {
  /** The console's base path, ending in "/". */
  base: string;
  entries: NavEntry[];
}

/** `g` then a letter: the section it goes to. */
export const GO_KEYS: Record<string, string> = {
  d: "/dashboard",
  o: "/object-browser",
  a: "/account",
  b: "/buckets",
  u: "/users",
  g: "/groups",
  p: "/policies",
  s: "/settings",
  l: "/logs",
  w: "/watch",
  t: "/trace",
  h: "/heal",
  i: "/health-info",
  n: "/tenants",
  v: "/storage",
  c: "/license",
};

/** The sections of this page's menu, read from the data the shell renders; none outside the shell. */
export function readNav(): Nav {
  const data = document.getElementById("deck-nav")?.textContent;
  try {
    const nav = JSON.parse(data ?? "null") as Nav | null;
    if (nav && Array.isArray(nav.entries)) return nav;
  } catch {
    // No menu data: no sections to go to.
  }
  return { base: "/", entries: [] };
}

/** The section `g` then `letter` goes to, when the session may open it. */
export function goTarget(nav: Nav, letter: string): NavEntry | undefined {
  const route = GO_KEYS[letter];
  return route ? nav.entries.find((e) => e.route === route) : undefined;
}

const TEXT_INPUTS = new Set([
  "text",
  "search",
  "email",
  "password",
  "number",
  "url",
  "tel",
  "date",
  "datetime-local",
  "time",
  "month",
  "week",
]);

/** Whether the element takes typed text (a text field, text area, select or editable region). */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement) return TEXT_INPUTS.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement ||
    target.isContentEditable;
}

/** Whether a modal dialog is open: its own keys (Escape, Enter) come first. */
export const modalOpen = () => document.querySelector("dialog[open]") !== null;
