/**
 * Server side of an island: renders the component inside its hydration marker and puts its props in a JSON
 * data block right after it (the only inline <script> the CSP allows: it is data, never executed).
 */
import { type ComponentType, createContext, useContext } from "react";
import type { IslandName } from "../../../islands/registry.ts";

/** Collects which islands a page rendered, so the document adds the client script only when needed. */
export class RenderCollector {
  readonly islands = new Set<IslandName>();
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
  collector.islands.add(name);
  return (
    <>
      <div data-island={name} className="contents">
        <Component {...props} />
      </div>
      <script type="application/json" dangerouslySetInnerHTML={{ __html: jsonForHtml(props) }} />
    </>
  );
}

/** Asks for the keyboard shortcuts script, a small one of its own that loads the palette on first use. */
export function KeyboardShortcuts() {
  const collector = useContext(RenderContext);
  if (!collector) throw new Error("KeyboardShortcuts rendered outside renderPage");
  collector.keyboard = true;
  return null;
}
