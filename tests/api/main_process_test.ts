/**
 * Deck as production starts it: `deno run main.ts` as its own process, the embedded storage on a thread of its
 * own (server/storage/thread.ts). Sign-in, an upload and its download go through the console; the storage's
 * work runs on the worker thread, not the console's; a bucket's events reach a webhook from the storage thread's
 * own delivery thread, at background priority; SIGTERM right after an acknowledged upload and a restart on
 * the same data dir keep the object; a storage that cannot start stops Deck's start with a clear error.
 */
import assert from "node:assert/strict";
import { S3Client } from "../../server/s3/client.ts";
import { serviceRestart, setConfigKV } from "../../server/s3/admin/config_kv.ts";
import { listBuckets, putObject } from "../../server/s3/mod.ts";
import { putBucketNotification } from "../../server/s3/ops/notification.ts";
import { BACKGROUND_NICE } from "../../server/storage/background_thread.ts";
import { eventually, webhookReceiver } from "../notify_services.ts";
import { threadNice, threadsAtNice } from "../threads.ts";
import { freePort } from "../storage_process.ts";
import { ConsoleClient } from "../helpers.ts";
import { searchKeepsConsoleServing } from "./search_responsiveness.ts";

const ROOT = { accessKey: "processadmin", secretKey: "process-secret-123456" };
const MIB = 1024 * 1024;

interface Deck {
  child: Deno.ChildProcess;
  consoleUrl: string;
  storageUrl: string;
  output: () => string;
  /** Exit status, once the process ended. */
  status: Promise<Deno.CommandStatus>;
}

/** Collects a stream's text as it comes (so a full pipe never stalls the process). */
function collect(stream: ReadableStream<Uint8Array>): { text: () => string; done: Promise<void> } {
  let text = "";
  const decoder = new TextDecoder();
  const done = (async () => {
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  })();
  return { text: () => text, done: done.catch(() => {}) };
}

function spawnDeck(dataDir: string, ports: { console: number; storage: number; logSearch: number }): Deck {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL("../../main.ts", import.meta.url).pathname],
    env: {
      CONSOLE_HOSTNAME: "127.0.0.1",
      CONSOLE_PORT: String(ports.console),
      CONSOLE_STORAGE_ADDRESS: `127.0.0.1:${ports.storage}`,
      CONSOLE_LOG_SEARCH_ADDRESS: `127.0.0.1:${ports.logSearch}`,
      CONSOLE_DATA_DIR: dataDir,
      MINIO_ROOT_USER: ROOT.accessKey,
      MINIO_ROOT_PASSWORD: ROOT.secretKey,
      NO_COLOR: "1",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const status = Promise.all([child.status, stdout.done, stderr.done]).then(([s]) => s);
  return {
    child,
    consoleUrl: `http://127.0.0.1:${ports.console}`,
    storageUrl: `http://127.0.0.1:${ports.storage}`,
    output: () => `stdout:\n${stdout.text()}\nstderr:\n${stderr.text().slice(-4000)}`,
    status,
  };
}

/** Waits until the console answers /healthz (or the process ended, which fails). */
async function ready(deck: Deck): Promise<void> {
  let exited = false;
  deck.status.then(() => exited = true);
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`Deck exited before serving:\n${deck.output()}`);
    const ok = await fetch(`${deck.consoleUrl}/healthz`).then(async (res) => {
      await res.body?.cancel();
      return res.ok;
    }, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Deck did not serve within 90 s:\n${deck.output()}`);
}

async function stop(deck: Deck): Promise<Deno.CommandStatus> {
  try {
    deck.child.kill("SIGTERM");
  } catch { /* already gone */ }
  return await deck.status;
}

/** CPU time (ms) of the process's threads: the main thread (tid = pid) and the Deno worker threads. */
async function threadCpu(pid: number): Promise<{ main: number; workers: number }> {
  let main = 0, workers = 0;
  for await (const task of Deno.readDir(`/proc/${pid}/task`)) {
    const stat = await Deno.readTextFile(`/proc/${pid}/task/${task.name}/stat`).catch(() => "");
    if (!stat) continue;
    const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ms = (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, clock ticks of 10 ms
    if (task.name === String(pid)) main = ms;
    else if (comm.startsWith("worker-")) workers += ms;
  }
  return { main, workers };
}

Deno.test({
  name:
    "main.ts as a process: the storage on its own thread, sign-in, upload and download, SIGTERM keeps the write",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-process-" });
  const ports = { console: await freePort(), storage: await freePort(), logSearch: await freePort() };
  const big = new Uint8Array(6 * MIB).map((_, i) => (i * 31) & 0xff);
  let deck = spawnDeck(dataDir, ports);
  try {
    await ready(deck);
    assert.match(
      deck.output(),
      new RegExp(`Embedded storage server \\(S3, admin, STS\\) at ${deck.storageUrl}`),
    );

    await t.step("sign-in, upload and download go through the console to the storage thread", async () => {
      const root = new ConsoleClient(deck.consoleUrl);
      const signIn = await root.request("POST", "/api/v1/login", ROOT);
      assert.equal(signIn.status, 201, await signIn.text());
      await root.json("POST", "/api/v1/buckets", { name: "kept" }, 201);
      const form = new FormData();
      form.append("notes.txt", new File(["written before SIGTERM"], "notes.txt", { type: "text/plain" }));
      form.append("big.bin", new File([big], "big.bin"));
      const upload = await fetch(`${root.baseUrl}/api/v1/buckets/kept/objects/upload?prefix=`, {
        method: "POST",
        body: form,
        headers: { cookie: root.cookie, origin: root.baseUrl },
      });
      assert.equal(upload.status, 200, await upload.text());
      const text = await fetch(`${root.baseUrl}/api/v1/buckets/kept/objects/download?prefix=notes.txt`, {
        headers: { cookie: root.cookie },
      });
      assert.equal(text.status, 200);
      assert.equal(await text.text(), "written before SIGTERM");
    });

    await t.step(
      "a glob search that would backtrack for years finishes, and /healthz answers while it runs",
      () => searchKeepsConsoleServing(deck.consoleUrl, deck.storageUrl, ROOT),
    );

    await t.step("the storage's work runs on a worker thread, not the console's", async () => {
      const admin = new S3Client({ endpoint: deck.storageUrl, credentials: ROOT });
      const before = await threadCpu(deck.child.pid);
      for (let i = 0; i < 1500; i++) await listBuckets(admin);
      const after = await threadCpu(deck.child.pid);
      const workers = after.workers - before.workers, main = after.main - before.main;
      assert.ok(
        workers > 0 && workers > main,
        `storage requests cost ${workers} ms on worker threads and ${main} ms on the main thread`,
      );
    });

    await t.step(
      "events leave from the storage thread's own delivery thread, at background priority",
      async () => {
        const admin = new S3Client({ endpoint: deck.storageUrl, credentials: ROOT });
        const hook = webhookReceiver();
        try {
          await setConfigKV(admin, `notify_webhook endpoint=${hook.url}`);
          await serviceRestart(admin);
          await putBucketNotification(admin, "kept", [{
            id: "hook",
            arn: "arn:minio:sqs::_:webhook",
            events: ["s3:ObjectCreated:*"],
          }]);
          await putObject(admin, "kept", "announced.txt", "hello");
          const received = await eventually(
            async () => hook.received,
            (r) => r.length > 0,
            "the webhook event",
          );
          assert.equal(received[0].body.Key, "kept/announced.txt");
          assert.ok(
            threadsAtNice(deck.child.pid, BACKGROUND_NICE).size > 0,
            "the delivery thread runs at background priority",
          );
          assert.equal(
            threadNice(deck.child.pid, deck.child.pid),
            0,
            "the console's thread keeps its priority",
          );
        } finally {
          await hook.close();
        }
      },
    );

    await t.step(
      "SIGTERM right after the acknowledged upload, then a restart, keeps the objects",
      async () => {
        const status = await stop(deck);
        assert.equal(status.code, 0, `Deck should exit cleanly on SIGTERM:\n${deck.output()}`);
        deck = spawnDeck(dataDir, ports);
        await ready(deck);
        const root = new ConsoleClient(deck.consoleUrl);
        const signIn = await root.request("POST", "/api/v1/login", ROOT);
        assert.equal(signIn.status, 201, await signIn.text());
        const text = await fetch(`${root.baseUrl}/api/v1/buckets/kept/objects/download?prefix=notes.txt`, {
          headers: { cookie: root.cookie },
        });
        assert.equal(await text.text(), "written before SIGTERM");
        const back = await fetch(`${root.baseUrl}/api/v1/buckets/kept/objects/download?prefix=big.bin`, {
          headers: { cookie: root.cookie },
        });
        assert.deepEqual(new Uint8Array(await back.arrayBuffer()), big);
      },
    );
  } finally {
    await stop(deck);
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});

Deno.test({
  name: "main.ts as a process: a storage that cannot start stops Deck's start with a clear error",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-process-" });
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const ports = {
    console: await freePort(),
    storage: (taken.addr as Deno.NetAddr).port,
    logSearch: await freePort(),
  };
  const deck = spawnDeck(dataDir, ports);
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const status = await Promise.race([
      deck.status,
      new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 90_000)),
    ]);
    clearTimeout(timer);
    assert.ok(status, `Deck kept running with its storage port taken:\n${deck.output()}`);
    assert.notEqual(status.code, 0);
    assert.match(deck.output(), /Deck cannot start: the embedded storage did not start: .*in use/i);
    assert.doesNotMatch(deck.output(), /Deck console:/);
  } finally {
    await stop(deck);
    taken.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
