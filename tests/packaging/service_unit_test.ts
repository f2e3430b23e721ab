/**
 * deploy/deck.service: `systemd-analyze verify` accepts it without a word, and what it confines Deck to is
 * enough. systemd is not the init here, so the confinement is checked against what Deck does: run as an
 * unprivileged user under strace (sign-in, a versioned bucket, an upload large enough for the hashing
 * worker, pages, a clean SIGTERM), every system call it makes must pass the unit's filter, every socket
 * family its RestrictAddressFamilies=, and every write it manages must land in the data directory.
 */
import assert from "node:assert/strict";
import { build } from "../../build/build.ts";
import { ensureSystemPrograms, STRACE, SYSTEMD_ANALYZE } from "../../build/system_deps.ts";
import { RUN_PERMISSIONS } from "../../build/compile.ts";
import { ConsoleClient } from "../helpers.ts";
import { freePort } from "../storage_process.ts";
import { copyApp, descendants, ROOT, run, runtimeOnlyDenoDir } from "./helpers.ts";
import { allowedCalls, parseStrace } from "./syscalls.ts";

const UNIT_FILE = `${ROOT}deploy/deck.service`;
const unit = await Deno.readTextFile(UNIT_FILE);
const NOBODY = 65534;
const ADMIN = { accessKey: "unitadmin", secretKey: "unit-secret-123456" };

Deno.test("systemd-analyze verify accepts deploy/deck.service without a warning", async () => {
  const missing = await ensureSystemPrograms([SYSTEMD_ANALYZE]);
  assert.equal(missing, null, missing ?? "");
  // verify checks that ExecStart's program exists: give it one where the unit expects it, in a mount
  // namespace of its own so this machine's /usr/local/bin is left as it is.
  const script = `mount -t tmpfs deck-test /usr/local/bin && ln -s "$0" /usr/local/bin/deno && ` +
    `exec systemd-analyze verify "$1"`;
  const verify = await run("unshare", ["-m", "--", "sh", "-c", script, Deno.execPath(), UNIT_FILE]);
  assert.equal(verify.code, 0, verify.stderr);
  assert.equal(verify.stdout + verify.stderr, "", "systemd-analyze verify printed warnings");
});

Deno.test("the unit's ExecStart runs the runtime set with the compiled binary's permissions", () => {
  const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1] ?? "";
  assert.equal(
    execStart,
    `/usr/local/bin/deno run --cached-only --config /opt/deck/deno.runtime.json ${
      RUN_PERMISSIONS.join(" ")
    } ` +
      "/opt/deck/main.ts",
  );
  assert.match(unit, /^ProtectSystem=strict$/m);
  assert.match(unit, /^ReadWritePaths=\/var\/lib\/deck$/m);
  assert.match(unit, /^Environment=CONSOLE_DATA_DIR=\/var\/lib\/deck$/m);
  assert.match(unit, /^NoNewPrivileges=yes$/m);
  assert.match(unit, /^Restart=on-failure$/m);
  assert.match(unit, /^EnvironmentFile=\/etc\/deck\/deck\.env$/m);
});

const notRoot = Deno.uid() !== 0;

Deno.test({
  name: notRoot
    ? "the unit's confinement (skipped: running Deck as another user under strace needs root)"
    : "Deck run as the unit runs it makes only calls its filter allows and writes only its data directory",
  ignore: notRoot,
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const missing = await ensureSystemPrograms([SYSTEMD_ANALYZE, STRACE]);
  assert.equal(missing, null, missing ?? "");
  await build({ ifStale: true });
  // Everything the unprivileged user reads is copied where it may read it, as /opt/deck is laid out.
  const tmp = await Deno.makeTempDir({ prefix: "deck-unit-" });
  try {
    await copyApp(`${tmp}/app`);
    await runtimeOnlyDenoDir(`${tmp}/deno-cache`);
    await Deno.copyFile(Deno.execPath(), `${tmp}/deno`);
    const readable = await run("chmod", ["-R", "a+rX", tmp]);
    assert.equal(readable.code, 0, readable.stderr);
    const dataDir = `${tmp}/data`;
    await Deno.mkdir(dataDir, { mode: 0o700 });
    await Deno.chown(dataDir, NOBODY, NOBODY);

    const port = await freePort();
    const trace = `${tmp}/strace.txt`;
    const child = new Deno.Command("strace", {
      args: [
        ...["-f", "-qq", "-s", "4096", "-o", trace],
        ...["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups", "--"],
        ...[`${tmp}/deno`, "run", "--cached-only", "--config", `${tmp}/app/deno.runtime.json`],
        ...RUN_PERMISSIONS,
        `${tmp}/app/main.ts`,
      ],
      cwd: dataDir,
      clearEnv: true,
      env: {
        PATH: "/usr/bin:/bin",
        DENO_DIR: `${tmp}/deno-cache`,
        DENO_NO_UPDATE_CHECK: "1",
        NO_COLOR: "1",
        CONSOLE_DATA_DIR: dataDir,
        CONSOLE_HOSTNAME: "127.0.0.1",
        CONSOLE_PORT: String(port),
        CONSOLE_STORAGE_ADDRESS: `127.0.0.1:${await freePort()}`,
        CONSOLE_LOG_SEARCH_ADDRESS: `127.0.0.1:${await freePort()}`,
        MINIO_ROOT_USER: ADMIN.accessKey,
        MINIO_ROOT_PASSWORD: ADMIN.secretKey,
      },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const finished = child.output();
    const base = `http://127.0.0.1:${port}`;
    try {
      await untilServing(base, finished);
      await exercise(new ConsoleClient(base));
    } finally {
      for (const pid of await descendants(child.pid)) {
        const cmdline = await Deno.readTextFile(`/proc/${pid}/cmdline`).catch(() => "");
        if (cmdline.includes("main.ts") && !cmdline.startsWith("strace")) Deno.kill(pid, "SIGTERM");
      }
    }
    const { code, stderr } = await finished;
    assert.equal(code, 0, new TextDecoder().decode(stderr).slice(-3000));

    const traced = parseStrace(await Deno.readTextFile(trace), new RegExp(`execve\\("${tmp}/deno"`));
    const allowed = await allowedCalls(unit);
    assert.ok(traced.calls.size > 40, `strace recorded ${traced.calls.size} calls`);
    assert.deepEqual(
      [...traced.calls].filter((call) => !allowed.has(call)).sort(),
      [],
      "calls the filter denies",
    );
    const families = /^RestrictAddressFamilies=(.*)$/m.exec(unit)?.[1].split(/\s+/) ?? [];
    assert.deepEqual([...traced.families].filter((f) => !families.includes(f)), [], "socket families denied");
    assert.ok(
      traced.writes.some((w) => w.ok && w.path.startsWith(`${dataDir}/buckets/`)),
      "no write recorded",
    );
    const outside = traced.writes.filter((w) => w.ok && !isInside(w.path, dataDir));
    assert.deepEqual(outside, [], "writes outside the data directory (ProtectSystem=strict refuses them)");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

/** Inside the data directory (relative paths are: it is the working directory), or a device. */
function isInside(path: string, dataDir: string): boolean {
  return !path.startsWith("/") || path.startsWith(`${dataDir}/`) || path === dataDir || path === "/dev/null";
}

async function untilServing(base: string, finished: Promise<Deno.CommandOutput>): Promise<void> {
  let ended = false;
  finished.then(() => ended = true);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && !ended) {
    const ok = await fetch(`${base}/healthz`).then(async (res) => {
      await res.body?.cancel();
      return res.ok;
    }, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { stderr } = await finished;
  throw new Error(`Deck did not serve:\n${new TextDecoder().decode(stderr).slice(-3000)}`);
}

/** What an administrator does first: sign in, make a versioned bucket, upload, download, open pages. */
async function exercise(client: ConsoleClient): Promise<void> {
  assert.equal((await client.request("POST", "/api/v1/login", ADMIN)).status, 201);
  await client.json("POST", "/api/v1/buckets", { name: "unit-bucket", versioning: true }, 201);
  const big = new Uint8Array(600 * 1024).map((_, i) => (i * 13) & 0xff);
  const form = new FormData();
  form.append("big file.bin", new File([big], "big file.bin"));
  const upload = await fetch(`${client.baseUrl}/api/v1/buckets/unit-bucket/objects/upload?prefix=`, {
    method: "POST",
    body: form,
    headers: { cookie: client.cookie, origin: client.baseUrl },
  });
  assert.equal(upload.status, 200, await upload.text());
  const download = await client.request(
    "GET",
    "/api/v1/buckets/unit-bucket/objects/download?prefix=big%20file.bin",
  );
  assert.deepEqual(new Uint8Array(await download.arrayBuffer()), big);
  for (const page of ["/buckets", "/dashboard", "/api/v1/admin/info"]) {
    const res = await client.request("GET", page);
    await res.body?.cancel();
    assert.equal(res.status, 200, page);
  }
}
