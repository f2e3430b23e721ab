/**
 * Whether the built assets (static/gen/assets.ts) still match their inputs. Kept apart from build.ts so that
 * `deno task start` can ask without loading esbuild: with prebuilt assets, running needs no build tools.
 *
 * The stamp hashes each input's path relative to the repository and its content, not its modification time,
 * so a prebuilt tree stays fresh when it is copied, unpacked or cloned elsewhere (the image, an offline site).
 */

const root = new URL("../", import.meta.url).pathname;

/** The generated module every server entry imports. */
export const ASSETS_MODULE = `${root}static/gen/assets.ts`;
/** The small module pages read the assets' names from (the bytes stay in ASSETS_MODULE, loaded on first use). */
export const MANIFEST_MODULE = `${root}static/gen/manifest.ts`;
/** The stamp of the inputs the current assets were built from. */
export const STAMP_FILE = `${root}static/gen/inputs.stamp`;

/** Folders whose TypeScript, CSS and SVG files can change what the build emits. */
const INPUT_DIRS = ["islands", "routes", "static", "server", "build"];
/** The build config's lock: the versions of esbuild, tailwind, daisyUI and the browser packages bundled. */
const INPUT_LOCK = "deno.build.lock";

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Hash of every input file (path and content), so a build that would change nothing can be skipped. */
export async function inputsStamp(): Promise<string> {
  const files: string[] = [];
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(`${root}${dir}`)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory && entry.name !== "gen") await walk(path);
      else if (entry.isFile && /\.(tsx?|css|svg)$/.test(entry.name)) files.push(path);
    }
  };
  for (const dir of INPUT_DIRS) await walk(dir);
  files.sort();
  const parts: string[] = [];
  for (const path of files) parts.push(`${path}:${await sha256Hex(await Deno.readFile(`${root}${path}`))}`);
  parts.push(await Deno.readTextFile(`${root}${INPUT_LOCK}`).catch(() => ""));
  return await sha256Hex(new TextEncoder().encode(parts.join("\n")));
}

/** True when a generated module is missing or was built from other inputs than the tree now holds. */
export async function assetsAreStale(): Promise<boolean> {
  const exists = (file: string) => Deno.stat(file).then(() => true, () => false);
  if (!(await exists(ASSETS_MODULE)) || !(await exists(MANIFEST_MODULE))) return true;
  const previous = await Deno.readTextFile(STAMP_FILE).catch(() => "");
  return previous !== await inputsStamp();
}
