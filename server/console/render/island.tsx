/**
 * Server side of an island: renders the component inside its hydration marker and puts its props in a JSON
 * data block right after it (the only inline <script> the CSP allows: it is data, never executed).
 *
 * Each island renders as a root of its own, after the page around it (fillIslands): exactly the tree the
 * browser hydrates (islands/client.ts), so ids from useId match, and the same props in the same language
 * give the same HTML. That HTML is kept (a bounded cache), because an island is most of a page's work: the
 * users table of /users was 0.85 ms of the page's 2 ms of CPU, and 200 sessions reading the same list render
 * it once.
 */
import { type ComponentType, createContext, useContext } from "react";
import { renderToString } from "react-dom/server";
import type { IslandName } from "../../../islands/registry.ts";
import { concatBytes } from "../../lib/s3/bytes.ts";

/** One island of a page, rendered later in place of its marker. */
interface PendingIsland {
  name: IslandName;
  component: ComponentType<never>;
  props: object;
  /** The props as embedded in the page (jsonForHtml). */
  json: string;
}

/** Collects which islands a page rendered, so the document adds the client script only when needed. */
export class RenderCollector {
  readonly islands = new Set<IslandName>();
  /** The islands in page order; the page holds a marker for each (see fillIslands). */
  readonly pending: PendingIsland[] = [];
  /** The page takes keyboard shortcuts (islands/keyboard/shortcuts.ts): every signed-in page does. */
  keyboard = false;
}

export const RenderContext = createContext<RenderCollector | null>(null);

/** Escapes JSON for embedding in HTML: no "</script>", no HTML comment openers, no line separators. */
export function jsonForHtml(value: unknown): string {
  // One pass: pages carry tens of kilobytes of JSON, and each scan of it is paid on every page.
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => HTML_SAFE_JSON[ch]);
}

const HTML_SAFE_JSON: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/** Renders an island. Props must be plain JSON data: no functions, no secrets. */
export function Island<P extends object>(
  { name, component: Component, props }: { name: IslandName; component: ComponentType<P>; props: P },
) {
  const collector = useContext(RenderContext);
  if (!collector) throw new Error("Island rendered outside renderPage");
  if (collector === NO_NESTING) throw new Error(`Island ${name} rendered inside another island`);
  collector.islands.add(name);
  const json = jsonForHtml(props);
  const marker = `<!--deck-island:${collector.pending.length}-->`;
  collector.pending.push({ name, component: Component as ComponentType<never>, props, json });
  return (
    <>
      <div data-island={name} className="contents" dangerouslySetInnerHTML={{ __html: marker }} />
      <script type="application/json" dangerouslySetInnerHTML={{ __html: json }} />
    </>
  );
}

/** Islands hydrate as roots of their own: one inside another would be hydrated twice. */
const NO_NESTING = new RenderCollector();

/** Markers React cannot produce from data: text and attributes are escaped, JSON blocks escape "<". */
const ISLAND_MARKER = /<!--deck-island:(\d+)-->/g;

/**
 * Rendered islands by language, name and props JSON, least recently used first, kept as UTF-8: encoding a page
 * was a fifth of its CPU (V8 writes UTF-8 at under 1 GB/s), and an island is most of a page's bytes, so a kept
 * one is copied into the page rather than encoded again.
 */
const renderedIslands = new Map<string, { html: Uint8Array<ArrayBuffer>; at: number }>();
/** Key characters plus HTML bytes of everything kept. */
let renderedSize = 0;
/** Enough for every list of a busy console several times over. */
const RENDERED_SIZE_MAX = 8 * 1024 * 1024;
/**
 * An island renders from its props and language alone (hydration needs that), but a few take a default from
 * the clock (a share link's expiry day); kept HTML is renewed after this long so no such default goes stale.
 */
const RENDERED_MAX_AGE_MS = 60_000;

const utf8 = new TextEncoder();

function renderIsland(locale: string, island: PendingIsland): Uint8Array<ArrayBuffer> {
  const key = `${locale}\u0000${island.name}\u0000${island.json}`;
  const kept = renderedIslands.get(key);
  const now = Date.now();
  if (kept && now - kept.at < RENDERED_MAX_AGE_MS) {
    renderedIslands.delete(key); // most recently used goes last
    renderedIslands.set(key, kept);
    return kept.html;
  }
  const Component = island.component as ComponentType<object>;
  const html = utf8.encode(renderToString(
    <RenderContext.Provider value={NO_NESTING}>
      <Component {...island.props} />
    </RenderContext.Provider>,
  ));
  if (kept) {
    renderedIslands.delete(key);
    renderedSize -= key.length + kept.html.length;
  }
  renderedIslands.set(key, { html, at: now });
  renderedSize += key.length + html.length;
  for (const [oldKey, old] of renderedIslands) {
    if (renderedSize <= RENDERED_SIZE_MAX) break;
    renderedIslands.delete(oldKey);
    renderedSize -= oldKey.length + old.html.length;
  }
  return html;
}

/** A page's HTML in pieces: text still to be encoded, and bytes already encoded (islands, kept blocks). */
export type HtmlPart = string | Uint8Array<ArrayBuffer>;

/** The page's HTML with each island's marker replaced by the island rendered on its own (or kept). */
export function fillIslands(html: string, collector: RenderCollector, locale: string): HtmlPart[] {
  if (collector.pending.length === 0) return [html];
  const parts: HtmlPart[] = [];
  let end = 0;
  for (const marker of html.matchAll(ISLAND_MARKER)) {
    parts.push(html.slice(end, marker.index));
    parts.push(renderIsland(locale, collector.pending[Number(marker[1])]));
    end = marker.index + marker[0].length;
  }
  parts.push(html.slice(end));
  return parts;
}

/** The parts as one UTF-8 body: the text encoded, the bytes copied. */
export function htmlBytes(parts: readonly HtmlPart[]): Uint8Array<ArrayBuffer> {
  return concatBytes(parts.map((part) => typeof part === "string" ? utf8.encode(part) : part));
}

/** Asks for the keyboard shortcuts script, a small one of its own that loads the palette on first use. */
export function KeyboardShortcuts() {
  const collector = useContext(RenderContext);
  if (!collector) throw new Error("KeyboardShortcuts rendered outside renderPage");
  collector.keyboard = true;
  return null;
}
