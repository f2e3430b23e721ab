/**
 * Turns a server-rendered React tree into a full HTML document. The client script (and modulepreload links
 * for the islands used) is added only when the page rendered at least one island; the keyboard shortcuts'
 * small script only when the page asked for it (the signed-in shell does). A page without either ships no
 * JavaScript.
 */
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { type AssetManifest, manifest as builtManifest } from "../../../static/gen/manifest.ts";
import type { Area } from "../../../islands/lib/i18n/en/mod.ts";
import { currentLocale, MESSAGES_ELEMENT_ID } from "../../../islands/lib/i18n/t.ts";
import type { Locale } from "../../../islands/lib/i18n/locales.ts";
import { pageMessages } from "./i18n.ts";
import { fillIslands, htmlBytes, jsonForHtml, RenderCollector, RenderContext } from "./island.tsx";

export type Theme = "light" | "dark" | "system";

export interface PageOptions {
  title: string;
  body: ReactNode;
  status?: number;
  theme?: Theme;
}

/** Renders pages for one console instance (its subpath and built assets). */
export interface PageRenderer {
  (options: PageOptions): Response;
  /** Absolute URL path of a console route, e.g. href("/buckets") → "/console/buckets" under a subpath. */
  href(path: string): string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/**
 * The page's texts as its data block, built and encoded once per language and set of areas: a catalogue never
 * changes once loaded, and building the block (merging the areas, then 30 KB of JSON) was a tenth of a page's
 * work, encoding it another twentieth.
 */
const messagesBlocks = new Map<string, Uint8Array<ArrayBuffer>>();
function messagesBlock(locale: Locale, areas: Area[]): Uint8Array<ArrayBuffer> {
  const key = `${locale} ${[...new Set(areas)].sort().join(" ")}`;
  let block = messagesBlocks.get(key);
  if (block === undefined) {
    block = htmlBytes([
      `<script type="application/json" id="${MESSAGES_ELEMENT_ID}">${
        jsonForHtml(pageMessages(locale, areas))
      }</script>`,
    ]);
    messagesBlocks.set(key, block);
  }
  return block;
}

/** Creates the renderer; `manifest` defaults to the generated build's. */
export function createPageRenderer(
  options: { subpath: string; manifest?: AssetManifest; product?: string },
): PageRenderer {
  const product = options.product ?? "Deck";
  const manifest = options.manifest ?? builtManifest;
  const base = options.subpath;
  const staticUrl = (file: string) => `${base}static/${file}`;
  const render = (page: PageOptions): Response => {
    const collector = new RenderCollector();
    const locale = currentLocale();
    const body = fillIslands(
      renderToString(<RenderContext.Provider value={collector}>{page.body}</RenderContext.Provider>),
      collector,
      locale,
    );
    const head: string[] = [
      `<meta charset="utf-8">`,
      `<meta name="viewport" content="width=device-width, initial-scale=1">`,
      `<meta name="deck-base" content="${escapeHtml(base)}">`,
      `<title>${escapeHtml(page.title)} | ${escapeHtml(product)}</title>`,
      `<link rel="icon" href="${staticUrl(manifest.favicon)}">`,
      `<link rel="stylesheet" href="${staticUrl(manifest.css)}">`,
    ];
    const scripted = collector.islands.size > 0 || collector.keyboard;
    if (scripted) {
      // The texts the page's scripts may show, in its language only: its islands' areas and the keyboard's.
      const areas = [...collector.islands, ...(collector.keyboard ? ["shortcuts"] : [])]
        .flatMap((name) => (manifest.areas?.[name] ?? []) as Area[]);
      body.push(messagesBlock(locale, areas));
    }
    if (collector.islands.size > 0) {
      const preload = new Set<string>();
      for (const island of collector.islands) {
        for (const file of manifest.islands[island] ?? []) preload.add(file);
      }
      for (const file of preload) head.push(`<link rel="modulepreload" href="${staticUrl(file)}">`);
      head.push(`<script type="module" src="${staticUrl(manifest.client)}"></script>`);
    }
    if (collector.keyboard) {
      head.push(`<script type="module" src="${staticUrl(manifest.shortcuts)}"></script>`);
    }
    const themeAttr = page.theme === "dark"
      ? ` data-theme="deck-dark"`
      : page.theme === "light"
      ? ` data-theme="deck"`
      : "";
    const start = `<!doctype html><html lang="${locale}"${themeAttr}><head>${head.join("")}</head><body>`;
    // Encoded here, as bytes: a string body is encoded by the stream the listener reads it from, and that path
    // (a byte stream over a freshly encoded copy of a rope React built from thousands of pieces) was a sixth
    // of the console's CPU for a 96 KB page. Only the text around the islands is encoded per page: islands
    // and the catalogue are kept encoded, and htmlBytes copies them in. Headers are set after construction:
    // given with the body, Deno's Response prepares its own server's fast path, which Deck's listener never uses.
    const response = new Response(htmlBytes([start, ...body, "</body></html>"]), {
      status: page.status ?? 200,
    });
    response.headers.set("content-type", "text/html; charset=utf-8");
    response.headers.set("cache-control", "no-store");
    return response;
  };
  return Object.assign(render, { href: (path: string) => base + path.replace(/^\/+/, "") });
}
