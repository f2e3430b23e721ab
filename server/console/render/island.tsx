/**
 * Server side of an island: renders the component inside its hydration marker and puts its props in a JSON
 * data block right after it (the only inline <script> the CSP allows: it is data, never executed).
 */
import { type ComponentType, createContext, useContext } from "react";
import type { IslandName } from "../../../islands/registry.ts";

/** Collects which islands a page rendered, so the document adds the client script only when needed. */
export class RenderCollector {
  readonly islands = new Set<IslandName>();
}

export const RenderContext = createContext<RenderCollector | null>(null);

/** Escapes JSON for embedding in HTML: no "</script>", no HTML comment openers, no line separators. */
export function jsonForHtml(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/&/g, "\\u0026")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

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
