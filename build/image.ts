/**
 * `deno task image`: Deck's OCI image, built from scratch with Debian's buildah (installed with apt-get when
 * missing) and deploy/Containerfile. No registry is needed: this prepares the image's whole file tree here
 * and hands it to the Containerfile as its `rootfs` stage (`--build-context`); where a registry is reachable,
 * the Containerfile's own `rootfs` stage prepares the same tree (it runs this with --rootfs).
 *
 * The tree: the Deno binary and the glibc files `ldd` names, the application (server, pages, islands, the
 * built assets, the runtime config and lockfile), a Deno cache with the runtime packages only, and a user
 * "deck" (10001). The Containerfile loads every module once to fill that cache, so the console answers
 * within a second of start.
 *
 * Usage: deno task image [--tag localhost/deck:latest]
 *        deno task image --rootfs DIR   (only the tree, into DIR)
 */
import { parseArgs } from "node:util";
import { build } from "./build.ts";
import { copyRuntimePackages, RUNTIME_SET } from "./install_sets.ts";
import { BUILDAH, ensureSystemPrograms } from "./system_deps.ts";
import { EMBEDDED_VERSION } from "../server/storage/admin/info.ts";

const root = new URL("../", import.meta.url).pathname;

export const CONTAINERFILE = `${root}deploy/Containerfile`;
/** The image's user: not root, and not a user the host is likely to have. */
export const IMAGE_USER = 10001;
/** What the application needs at run time, as the repository lays it out (tests left out below). */
const APP_ENTRIES = [
  "main.ts",
  "server",
  "routes",
  "islands",
  "static/gen/assets.ts",
  "static/gen/manifest.ts",
  RUNTIME_SET.config,
];

async function run(program: string, args: string[], env: Record<string, string> = {}): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command(program, {
    args,
    env,
    stdout: "piped",
    stderr: "piped",
  })
    .output();
  const text = new TextDecoder().decode(stdout);
  if (code !== 0) {
    throw new Error(`${program} ${args.join(" ")} failed:\n${new TextDecoder().decode(stderr)}`);
  }
  return text;
}

/** Copies the application into `dir`, without test modules: the image serves what the binary would. */
async function copyApp(dir: string): Promise<void> {
  const copy = async (from: string, to: string): Promise<void> => {
    const info = await Deno.stat(from);
    if (info.isFile) return await Deno.copyFile(from, to);
    await Deno.mkdir(to, { recursive: true });
    for await (const entry of Deno.readDir(from)) {
      if (/_test\.tsx?$/.test(entry.name)) continue;
      await copy(`${from}/${entry.name}`, `${to}/${entry.name}`);
    }
  };
  for (const entry of APP_ENTRIES) {
    await Deno.mkdir(`${dir}/${entry}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await copy(`${root}${entry}`, `${dir}/${entry}`);
  }
  await Deno.copyFile(`${root}${RUNTIME_SET.lock}`, `${dir}/${RUNTIME_SET.lock}`);
}

/** The Deno binary and the shared libraries it loads, at the paths the loader looks for them. */
async function copyDeno(rootfs: string): Promise<void> {
  await Deno.mkdir(`${rootfs}/usr/bin`, { recursive: true });
  await Deno.copyFile(Deno.execPath(), `${rootfs}/usr/bin/deno`);
  await Deno.chmod(`${rootfs}/usr/bin/deno`, 0o755);
  const libraries = (await run("ldd", [Deno.execPath()])).matchAll(/(\/\S+) \(0x/g);
  for (const [, path] of libraries) {
    await Deno.mkdir(`${rootfs}${path.replace(/\/[^/]*$/, "")}`, { recursive: true });
    await Deno.copyFile(await Deno.realPath(path), `${rootfs}${path}`);
  }
}

async function writeSystemFiles(rootfs: string): Promise<void> {
  await Deno.mkdir(`${rootfs}/etc`, { recursive: true });
  await Deno.writeTextFile(
    `${rootfs}/etc/passwd`,
    `root:x:0:0:root:/root:/sbin/nologin\ndeck:x:${IMAGE_USER}:${IMAGE_USER}:Deck:/data:/sbin/nologin\n`,
  );
  await Deno.writeTextFile(`${rootfs}/etc/group`, `root:x:0:\ndeck:x:${IMAGE_USER}:\n`);
  // Names in /etc/hosts (a sidecar's "localhost", a pod's own name) before DNS.
  await Deno.writeTextFile(`${rootfs}/etc/nsswitch.conf`, "hosts: files dns\n");
  await Deno.mkdir(`${rootfs}/tmp`, { mode: 0o1777 });
  await Deno.chmod(`${rootfs}/tmp`, 0o1777);
  await Deno.mkdir(`${rootfs}/data`, { mode: 0o700 });
}

/** Prepares the image's file tree in `rootfs` (which must not exist yet). */
export async function prepareRootfs(rootfs: string): Promise<void> {
  await build({ ifStale: true });
  await Deno.mkdir(rootfs, { recursive: true });
  await copyDeno(rootfs);
  await writeSystemFiles(rootfs);
  await copyApp(`${rootfs}/app`);
  await Deno.mkdir(`${rootfs}/usr/lib/deck`, { recursive: true });
  await Deno.copyFile(`${root}deploy/warm_up.ts`, `${rootfs}/usr/lib/deck/warm_up.ts`);
  // The runtime packages from this machine's cache; whatever it lacks comes from the registry.
  const denoDir = `${rootfs}/deno-dir`;
  const missing = await copyRuntimePackages(denoDir);
  if (missing.length) console.log(`fetching ${missing.length} runtime packages from the registry`);
  await run(Deno.execPath(), ["install", "--frozen", "--config", `${rootfs}/app/${RUNTIME_SET.config}`], {
    DENO_DIR: denoDir,
    DENO_NO_UPDATE_CHECK: "1",
  });
  // Only the packages: the caches `deno install` left are filled again by the image's user, who must own them.
  for await (const entry of Deno.readDir(denoDir)) {
    if (entry.name !== "npm") await Deno.remove(`${denoDir}/${entry.name}`, { recursive: true });
  }
}

/** The Git commit of the tree, when there is one (a label, not a requirement). */
async function revision(): Promise<string> {
  return await run("git", ["-C", root, "rev-parse", "HEAD"]).then((out) => out.trim(), () => "");
}

/** Builds the image tagged `tag`; returns the seconds it took. */
export async function buildImage(tag: string): Promise<number> {
  const started = performance.now();
  const missing = await ensureSystemPrograms([BUILDAH]);
  if (missing) throw new Error(missing);
  const context = await Deno.makeTempDir({ prefix: "deck-image-" });
  try {
    await prepareRootfs(`${context}/rootfs/rootfs`);
    const args = [
      "bud",
      "--layers=false",
      // The RUN steps need nothing from outside; without a network they also add no bridge to the host
      // (which makes Chromium fail what it is loading with ERR_NETWORK_CHANGED in tests running beside).
      "--network",
      "none",
      "--build-context",
      `rootfs=${context}/rootfs`,
      "--build-arg",
      `DENO_VERSION=${Deno.version.deno}`,
      "--build-arg",
      `DECK_VERSION=${EMBEDDED_VERSION}`,
      "--build-arg",
      `REVISION=${await revision()}`,
      "-f",
      CONTAINERFILE,
      "-t",
      tag,
      // The main context is unused here: the tree comes in through the rootfs context.
      `${context}/main`,
    ];
    await Deno.mkdir(`${context}/main`);
    await run("buildah", args);
  } finally {
    await Deno.remove(context, { recursive: true });
  }
  return (performance.now() - started) / 1000;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { tag: { type: "string" }, rootfs: { type: "string" } },
  });
  if (values.rootfs) {
    await prepareRootfs(values.rootfs);
    console.log(`prepared ${values.rootfs}`);
  } else {
    const tag = values.tag ?? "localhost/deck:latest";
    const seconds = await buildImage(tag);
    console.log(`built ${tag} in ${Math.round(seconds)} s`);
  }
}
