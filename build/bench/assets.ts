/** What a page costs the browser in script and style bytes, for the benchmarks. */
import { gzipSync } from "node:zlib";
import { emit } from "./measure.ts";

/** Gzipped JavaScript the original console shipped on every page: the baseline of every JS budget row. */
export const ORIGINAL_CONSOLE_JS = 614 * 1024;

/** The row "JS gzip, <page>" against the original console and a budget in KB. */
export function emitJsBudget(page: string, js: number, budgetKB: number): void {
  emit({
    name: `JS gzip, ${page}`,
    deck: js / 1024,
    baseline: ORIGINAL_CONSOLE_JS / 1024,
    unit: "KB",
    ratio: js / ORIGINAL_CONSOLE_JS,
    goal: `≤ ${budgetKB} KB`,
    pass: js <= budgetKB * 1024,
    baselineName: "original console, every page",
  });
}

/**
 * Scripts and stylesheets a page loads, gzip-compressed, summed: the referenced files plus every chunk
 * they import statically (what the browser fetches before the page is interactive).
 */
export async function assetBytes(base: string, html: string): Promise<{ js: number; css: number }> {
  const pending = [...html.matchAll(/<(?:script|link)\b[^>]*(?:src|href)="([^"]+\.(?:js|css))"/g)].map((m) =>
    new URL(m[1], base).href
  );
  const seen = new Set<string>();
  let js = 0;
  let css = 0;
  while (pending.length) {
    const url = pending.pop()!;
    if (seen.has(url)) continue;
    seen.add(url);
    const body = new Uint8Array(await (await fetch(url)).arrayBuffer());
    const size = gzipSync(body, { level: 9 }).length;
    if (url.endsWith(".css")) {
      css += size;
      continue;
    }
    js += size;
    // Static imports only (`from"./c.js"`, `import"./c.js"`); dynamic import() loads on demand.
    for (const m of new TextDecoder().decode(body).matchAll(/(?:from|import)\s*"(\.\/[^"]+\.js)"/g)) {
      pending.push(new URL(m[1], url).href);
    }
  }
  return { js, css };
}

/** Gzipped bytes of the texts a page carries for its scripts (the `#deck-i18n` block), 0 when it has none. */
export function pageTextBytes(html: string): number {
  const block = /<script type="application\/json" id="deck-i18n">(.*?)<\/script>/s.exec(html)?.[1] ?? "";
  return block ? gzipSync(new TextEncoder().encode(block), { level: 9 }).length : 0;
}
