/**
 * `deno task start`: runs with the runtime config (deno.runtime.json), so only the packages running needs are
 * installed and loaded. When the assets are missing or an input changed since they were built, it first builds
 * them in a child process with the build config, which installs the build tools; with prebuilt assets (the
 * image, an offline site) no build tool is installed or needed. Then it starts the console exactly as the
 * compiled binary would (same main(), same embedded assets).
 */
import { BUILD_SET } from "./install_sets.ts";
import { assetsAreStale } from "./stamp.ts";

const root = new URL("../", import.meta.url).pathname;

async function buildAssets(): Promise<void> {
  const steps = [
    ["install", "--frozen", "--config", BUILD_SET.config],
    ["run", "-A", "--config", BUILD_SET.config, "build/build.ts"],
  ];
  for (const args of steps) {
    const { success } = await new Deno.Command(Deno.execPath(), {
      args,
      cwd: root,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!success) {
      console.error(
        `Deck cannot start: the assets need building and \`deno ${args.join(" ")}\` failed ` +
          "(building installs esbuild and tailwind from the registry the first time).",
      );
      Deno.exit(1);
    }
  }
}

if (await assetsAreStale()) await buildAssets();
const { main } = await import("../main.ts");
await main(Deno.args);
