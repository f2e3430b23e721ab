/**
 * Builds every asset the console serves and embeds them in one generated module, `static/gen/assets.ts`, with
 * their names in a small one beside it, `static/gen/manifest.ts`. `deno run main.ts` and the compiled binary
 * import those modules, so both serve the same bytes and nothing is fetched at run time; pages need only the
 * names at start, the 1.6 MB of bytes are loaded by the first request for a file under /static/.
 *
 *   islands/client.ts --esbuild (splitting: a chunk per island, shared React chunk, minified, hashed)--+
 *   islands/keyboard/shortcuts.ts (no React; the palette is a chunk it loads on first use) ----------+
 *   static/app.css    --tailwind v4 + daisyUI (minified)---------------------------------------------+--> assets.ts
 *   @fontsource/lato 400/700 woff2 ---------------------------------------------------------------------+
 *
 * Usage: deno run -A build/build.ts [--if-stale]   (--if-stale skips the build when no input changed)
 */
import * as esbuild from "esbuild";
import { ASSETS_MODULE, inputsStamp, MANIFEST_MODULE, STAMP_FILE } from "./stamp.ts";

const root = new URL("../", import.meta.url).pathname;
const genDir = `${root}static/gen`;

/** One served file: text assets as strings, binary ones as base64; gzip variant precomputed. */
interface BuiltAsset {
  path: string;
  type: string;
  body: Uint8Array;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>, length = 10): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("").slice(0, length);
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
    new CompressionStream("gzip"),
  );
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The catalogue's areas (islands/lib/i18n/en/mod.ts), as a key's first segment: "buckets.create.title". */
const AREA_KEY = /["'`](common|iam|buckets|objects|monitoring|settings|operator|wizard)\.[A-Za-z]/g;

/** The catalogue areas whose keys the given source files name, so a page carries those texts and no more. */
async function areasUsedBy(sources: Iterable<string>): Promise<string[]> {
  const areas = new Set<string>();
  for (const source of sources) {
    if (source.includes("node_modules/") || source.includes("/lib/i18n/")) continue;
    const text = await Deno.readTextFile(`${root}${source}`).catch(() => "");
    for (const match of text.matchAll(AREA_KEY)) areas.add(match[1]);
  }
  return [...areas].sort();
}

/**
 * Bundles the islands; returns the assets and, per island (and for the keyboard script, as "shortcuts"), the
 * files its first load needs and the catalogue areas its code (any chunk it may load) uses.
 */
async function bundleIslands(): Promise<
  {
    assets: BuiltAsset[];
    client: string;
    shortcuts: string;
    islandFiles: Record<string, string[]>;
    areas: Record<string, string[]>;
  }
> {
  const result = await esbuild.build({
    entryPoints: [`${root}islands/client.ts`, `${root}islands/keyboard/shortcuts.ts`],
    absWorkingDir: root, // the metafile's input paths are then relative to the repository
    bundle: true,
    splitting: true,
    format: "esm",
    minify: true,
    target: "es2022",
    jsx: "automatic",
    outdir: `${genDir}/out`,
    entryNames: "[name]-[hash]",
    chunkNames: "c-[hash]",
    write: false,
    metafile: true,
    define: { "process.env.NODE_ENV": '"production"' },
    legalComments: "none",
    logLevel: "warning",
    platform: "browser",
    // Server-only modules must never reach a browser bundle: fail the build instead of shipping a broken import.
    plugins: [{
      name: "no-server-modules",
      setup(build) {
        build.onResolve(
          { filter: /^node:|^npm:/ },
          (args) => ({
            errors: [{ text: `${args.importer} imports ${args.path}, which browsers cannot load` }],
          }),
        );
      },
    }],
  });
  const assets: BuiltAsset[] = result.outputFiles.map((file) => ({
    path: file.path.slice(`${genDir}/out/`.length),
    type: "text/javascript; charset=utf-8",
    body: file.contents,
  }));
  let client = "";
  let shortcuts = "";
  const islandFiles: Record<string, string[]> = {};
  const areas: Record<string, string[]> = {};
  const outputs = result.metafile.outputs;
  const importsOf = (file: string): string[] =>
    (outputs[file]?.imports ?? []).filter((i) => i.kind === "import-statement").map((i) => i.path);
  // Texts are needed for everything an island may load later too (a dialog's chunk), not only its first load.
  const sourcesReachedFrom = (file: string): Set<string> => {
    const seen = new Set<string>();
    const sources = new Set<string>();
    const visit = (f: string) => {
      if (seen.has(f)) return;
      seen.add(f);
      Object.keys(outputs[f]?.inputs ?? {}).forEach((input) => sources.add(input));
      (outputs[f]?.imports ?? []).filter((i) => !i.external).forEach((i) => visit(i.path));
    };
    visit(file);
    return sources;
  };
  for (const [file, output] of Object.entries(outputs)) {
    const name = file.slice(file.lastIndexOf("/") + 1);
    if (output.entryPoint?.endsWith("islands/client.ts")) client = name;
    if (output.entryPoint?.endsWith("islands/keyboard/shortcuts.ts")) {
      shortcuts = name;
      areas.shortcuts = await areasUsedBy(sourcesReachedFrom(file));
    }
    // A chunk whose own entry is islands/<Name>.tsx (or islands/<Name>/<Name>.tsx for an island with parts of
    // its own, CONVENTIONS §12) is that island's dynamic-import target.
    const islandEntry = output.entryPoint;
    if (islandEntry && /islands\/(?:([A-Z][A-Za-z0-9]*)\/\1|[A-Z][A-Za-z0-9]*)\.tsx$/.test(islandEntry)) {
      const island = islandEntry.slice(islandEntry.lastIndexOf("/") + 1, -4);
      const closure = new Set<string>();
      const visit = (f: string) => {
        if (closure.has(f)) return;
        closure.add(f);
        importsOf(f).forEach(visit);
      };
      visit(file);
      islandFiles[island] = [...closure].map((f) => f.slice(f.lastIndexOf("/") + 1));
      areas[island] = await areasUsedBy(sourcesReachedFrom(file));
    }
  }
  if (!client || !shortcuts) throw new Error("esbuild produced no client or shortcuts entry");
  return { assets, client, shortcuts, islandFiles, areas };
}

async function buildCss(): Promise<BuiltAsset> {
  const out = await Deno.makeTempFile({ suffix: ".css" });
  const cli = `${root}node_modules/@tailwindcss/cli/dist/index.mjs`;
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", cli, "-i", `${root}static/app.css`, "-o", out, "--minify"],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  });
  const { code, stderr } = await command.output();
  if (code !== 0) throw new Error(`tailwind failed:\n${new TextDecoder().decode(stderr)}`);
  const css = await Deno.readFile(out);
  await Deno.remove(out);
  return { path: `app-${await sha256Hex(css)}.css`, type: "text/css; charset=utf-8", body: css };
}

/** Lato 400/700 (latin + latin-ext) from @fontsource, with the @font-face rules pointing at hashed names. */
async function buildFonts(): Promise<{ assets: BuiltAsset[]; css: string }> {
  const assets: BuiltAsset[] = [];
  const rules: string[] = [];
  const ranges: Record<string, string> = {
    latin:
      "U+0000-00FF,U+0131,U+0152-0153,U+02BB-02BC,U+02C6,U+02DA,U+02DC,U+0304,U+0308,U+0329,U+2000-206F,U+20AC,U+2122,U+2191,U+2193,U+2212,U+2215,U+FEFF,U+FFFD",
    "latin-ext":
      "U+0100-02BA,U+02BD-02C5,U+02C7-02CC,U+02CE-02D7,U+02DD-02FF,U+0304,U+0308,U+0329,U+1D00-1DBF,U+1E00-1E9F,U+1EF2-1EFF,U+2020,U+20A0-20AB,U+20AD-20C0,U+2113,U+2C60-2C7F,U+A720-A7FF",
  };
  for (const weight of [400, 700]) {
    for (const subset of ["latin", "latin-ext"]) {
      const bytes = await Deno.readFile(
        `${root}node_modules/@fontsource/lato/files/lato-${subset}-${weight}-normal.woff2`,
      );
      const path = `lato-${subset}-${weight}-${await sha256Hex(bytes)}.woff2`;
      assets.push({ path, type: "font/woff2", body: bytes });
      rules.push(
        `@font-face{font-family:Lato;font-style:normal;font-display:swap;font-weight:${weight};src:url(${path}) format("woff2");unicode-range:${
          ranges[subset]
        }}`,
      );
    }
  }
  return { assets, css: rules.join("") };
}

async function writeModule(assets: BuiltAsset[], manifest: Record<string, unknown>): Promise<void> {
  const header = "// Generated by build/build.ts. Do not edit; run `deno task build`.";
  const manifestLines = [
    header,
    "// The names of the files under /static/ that pages link to (their bytes are in assets.ts).",
    "",
    "export interface EmbeddedAsset { type: string; base64: string; gzipBase64: string }",
    "export interface AssetManifest { client: string; shortcuts: string; css: string; favicon: string; islands: Record<string, string[]>; areas: Record<string, string[]> }",
    "",
    `export const manifest: AssetManifest = ${JSON.stringify(manifest, null, 2)};`,
    "",
  ];
  const lines = [
    header,
    "// Every file the console serves under /static/, embedded so the binary needs nothing else.",
    "",
    'import type { EmbeddedAsset } from "./manifest.ts";',
    "",
    "export const assets: Record<string, EmbeddedAsset> = {",
  ];
  for (const asset of assets) {
    const zipped = await gzip(asset.body);
    lines.push(
      `  ${JSON.stringify(asset.path)}: { type: ${
        JSON.stringify(asset.type)
      }, base64: "${asset.body.toBase64()}", gzipBase64: "${zipped.toBase64()}" },`,
    );
  }
  lines.push("};", "");
  // Each written whole then renamed, the bytes before the names that point at them.
  for (const [file, text] of [[ASSETS_MODULE, lines], [MANIFEST_MODULE, manifestLines]] as const) {
    await Deno.writeTextFile(`${file}.tmp`, text.join("\n"));
    await Deno.rename(`${file}.tmp`, file);
  }
}

/** Runs the whole build; returns false when skipped because nothing changed. */
export async function build(options: { ifStale?: boolean } = {}): Promise<boolean> {
  await Deno.mkdir(genDir, { recursive: true });
  const stamp = await inputsStamp();
  if (options.ifStale) {
    const previous = await Deno.readTextFile(STAMP_FILE).catch(() => "");
    const exists = (file: string) => Deno.stat(file).then(() => true, () => false);
    if (previous === stamp && await exists(ASSETS_MODULE) && await exists(MANIFEST_MODULE)) return false;
  }
  const started = performance.now();
  const [islands, css, fonts] = await Promise.all([bundleIslands(), buildCss(), buildFonts()]);
  await esbuild.stop();
  const cssWithFonts = new TextEncoder().encode(fonts.css + new TextDecoder().decode(css.body));
  const cssAsset: BuiltAsset = {
    ...css,
    path: `app-${await sha256Hex(cssWithFonts)}.css`,
    body: cssWithFonts,
  };
  const icon = await Deno.readFile(`${root}static/favicon.svg`);
  const iconAsset: BuiltAsset = {
    path: `favicon-${await sha256Hex(icon)}.svg`,
    type: "image/svg+xml",
    body: icon,
  };
  const assets = [...islands.assets, cssAsset, ...fonts.assets, iconAsset];
  const manifest = {
    client: islands.client,
    shortcuts: islands.shortcuts,
    css: cssAsset.path,
    favicon: iconAsset.path,
    islands: islands.islandFiles,
    areas: islands.areas,
  };
  await writeModule(assets, manifest);
  await Deno.writeTextFile(STAMP_FILE, stamp);
  const total = assets.reduce((sum, a) => sum + a.body.length, 0);
  console.log(
    `built ${assets.length} assets (${Math.round(total / 1024)} KiB) in ${
      Math.round(performance.now() - started)
    } ms`,
  );
  return true;
}

if (import.meta.main) {
  await build({ ifStale: Deno.args.includes("--if-stale") });
}
