/**
 * `deno task start` on a machine without network access: a copy of the application as a clone holds it (with
 * its assets built) and a Deno cache holding only the runtime lockfile's packages, started in a network
 * namespace with loopback only. It must serve the console and let root sign in, with no registry to fall back
 * on and no build tool or test package at hand; and `npm_config_offline=true npx -y deno@2.9.6`, the README's
 * offline spelling, must not wait on the registry. When an input of the assets changed, the same start must
 * see it and stop with a clear message, since building needs the build tools it cannot fetch.
 */
import assert from "node:assert/strict";
import { build } from "../../build/build.ts";
import { copyApp, descendants, noNetworkNamespace, ROOT, run, runtimeOnlyDenoDir } from "./helpers.ts";

const ROOT_USER = { accessKey: "offlineadmin", secretKey: "offline-secret-123456" };
const unavailable = await noNetworkNamespace();

Deno.test({
  name: unavailable
    ? `offline start (skipped: this machine cannot make a network namespace: ${unavailable})`
    : "deno task start serves without network access, from the runtime packages alone",
  ignore: unavailable !== null,
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  await build({ ifStale: true });
  const tmp = await Deno.makeTempDir({ prefix: "deck-offline-" });
  const app = `${tmp}/app`;
  const denoDir = `${tmp}/deno`;
  try {
    await copyApp(app);
    await runtimeOnlyDenoDir(denoDir);

    // Its own namespace has its own ports: the defaults are free there.
    const child = new Deno.Command("unshare", {
      args: ["-n", "--", "sh", "-c", 'ip link set lo up && exec "$0" task start', Deno.execPath()],
      cwd: app,
      env: {
        DENO_DIR: denoDir,
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
        CONSOLE_DATA_DIR: `${tmp}/data`,
        MINIO_ROOT_USER: ROOT_USER.accessKey,
        MINIO_ROOT_PASSWORD: ROOT_USER.secretKey,
      },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const finished = child.output();
    const inNamespace = (program: string, args: string[], env: Record<string, string> = {}) =>
      run("nsenter", [`--net=/proc/${child.pid}/ns/net`, "--", "env", ...toEnv(env), program, ...args], {
        cwd: tmp,
      });
    let stopped = false;
    try {
      await t.step("the console answers and root signs in, while the registry is out of reach", async () => {
        const probe = await inNamespace(Deno.execPath(), [
          "run",
          "-A",
          "--no-config",
          `${ROOT}tests/packaging/offline_probe.ts`,
          "http://127.0.0.1:9090",
          ROOT_USER.accessKey,
          ROOT_USER.secretKey,
          String(child.pid),
        ], { DENO_NO_UPDATE_CHECK: "1" });
        assert.equal(probe.code, 0, probe.stderr);
        const seen = JSON.parse(probe.stdout);
        if (!seen.up) {
          await stopDeck(child.pid).catch(() => {});
          stopped = true;
          const { stdout, stderr } = await finished;
          const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
          assert.fail(`the console did not answer:\n${output.slice(-3000)}`);
        }
        assert.equal(seen.title, "Login | Deck");
        assert.equal(seen.signIn, 201);
        assert.match(seen.registry, /^unreachable/);
      });

      await t.step(
        "npm_config_offline=true npx -y deno@2.9.6 starts at once without the registry",
        async () => {
          const npx = await run("sh", ["-c", "command -v npx"]);
          if (npx.code !== 0) {
            return console.log("npx is not installed here: only the cached deno binary was tried");
          }
          const started = performance.now();
          const version = await inNamespace("npx", ["-y", "deno@2.9.6", "--version"], {
            npm_config_offline: "true",
          });
          const seconds = (performance.now() - started) / 1000;
          assert.equal(version.code, 0, version.stderr);
          assert.match(version.stdout, /deno 2\.9\.6/);
          // Without the setting npx waits about 74 s for the registry before it uses its cache.
          assert.ok(seconds < 30, `npx took ${seconds.toFixed(1)} s`);
        },
      );

      await t.step("SIGTERM ends it cleanly, and it never made a node_modules folder", async () => {
        await stopDeck(child.pid);
        stopped = true;
        const { code, stdout, stderr } = await finished;
        const output = new TextDecoder().decode(stdout) + new TextDecoder().decode(stderr);
        assert.equal(code, 0, output);
        assert.match(output, /Deck console: http:\/\/localhost:9090\//);
        assert.doesNotMatch(output, /built \d+ assets/, "prebuilt assets were built again");
        const nodeModules = await Deno.stat(`${app}/node_modules`).then(() => true, () => false);
        assert.equal(nodeModules, false, "starting installed packages into node_modules");
      });
    } finally {
      if (!stopped) {
        await stopDeck(child.pid).catch(() => {});
        await finished;
      }
    }
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test({
  name: unavailable
    ? `offline start with stale assets (skipped: this machine cannot make a network namespace: ${unavailable})`
    : "deno task start sees assets older than their sources and says it cannot build them offline",
  ignore: unavailable !== null,
}, async () => {
  await build({ ifStale: true });
  const tmp = await Deno.makeTempDir({ prefix: "deck-offline-stale-" });
  try {
    await copyApp(`${tmp}/app`);
    await runtimeOnlyDenoDir(`${tmp}/deno`);
    const island = `${tmp}/app/islands/client.ts`;
    await Deno.writeTextFile(island, `${await Deno.readTextFile(island)}\n// changed after the build\n`);
    const start = await run("unshare", [
      "-n",
      "--",
      "sh",
      "-c",
      'ip link set lo up && exec "$0" task start',
      Deno.execPath(),
    ], {
      cwd: `${tmp}/app`,
      env: {
        DENO_DIR: `${tmp}/deno`,
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
        CONSOLE_DATA_DIR: `${tmp}/data`,
      },
      signal: AbortSignal.timeout(120_000),
    });
    assert.equal(start.code, 1, start.stdout + start.stderr);
    assert.match(
      start.stderr,
      /^Deck cannot start: the assets need building and `deno install --frozen --config deno\.build\.json` failed /m,
    );
    assert.doesNotMatch(start.stdout, /Deck console:/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

function toEnv(env: Record<string, string>): string[] {
  return Object.entries(env).map(([name, value]) => `${name}=${value}`);
}

/** SIGTERM to the console's own process (deno task runs it as a child), as a service manager would send. */
async function stopDeck(pid: number): Promise<void> {
  for (const child of await descendants(pid)) {
    const cmdline = await Deno.readTextFile(`/proc/${child}/cmdline`).catch(() => "");
    if (cmdline.includes("build/start.ts")) return Deno.kill(child, "SIGTERM");
  }
  Deno.kill(pid, "SIGTERM");
}
