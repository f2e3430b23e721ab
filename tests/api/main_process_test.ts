/**
 * Deck as production starts it: `deno run main.ts` as its own process, the embedded storage on a thread of its
 * own (server/storage/thread.ts). Sign-in, an upload and its download go through the console; the storage's
 * work runs on the worker thread, not the console's; a bucket's events reach a webhook from the storage thread's
 * own delivery thread, at background priority; SIGTERM right after an acknowledged upload and a restart on
 * the same data dir keep the object. What stops the start (a taken port) is main_start_test.ts.
 */
import assert from "node:assert/strict";
import { S3Client } from "../../server/lib/s3/client.ts";
import { serviceRestart, setConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { listBuckets, putObject } from "../../server/lib/s3/mod.ts";
import { putBucketNotification } from "../../server/lib/s3/ops/notification.ts";
import { BACKGROUND_NICE } from "../../server/storage/core/background_thread.ts";
import { eventually } from "../eventually.ts";
import { webhookReceiver } from "../notify_services.ts";
import { threadNice, threadsAtNice } from "../threads.ts";
import { freePort } from "../storage_process.ts";
import { ConsoleClient } from "../helpers.ts";
import { searchKeepsConsoleServing } from "./search_responsiveness.ts";
import { DECK_ROOT, ready, spawnDeck, stop } from "../deck_process.ts";

const ROOT = DECK_ROOT;
const MIB = 1024 * 1024;

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
  const ports = { console: await freePort(), storage: await freePort() };
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
          const received = await eventually("the webhook event", () => hook.received, {
            until: (r) => r.length > 0,
          });
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
