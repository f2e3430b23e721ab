/**
 * Audit and logger webhooks configured through config KV: entries in MinIO's shape reach the endpoint as soon
 * as the target is set (no restart), credentials stay out, a dead endpoint is reported in the server's log,
 * and removing the target stops delivery.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { rejectsWith, startStorage } from "./fixture.ts";
import { eventually } from "../eventually.ts";

interface Received {
  path: string;
  authorization: string | null;
  contentType: string | null;
  /** x-minio-webhook-payload-count of the POST this entry came in. */
  count: number;
  // deno-lint-ignore no-explicit-any -- audit entries are checked field by field below
  body: Record<string, any>;
}

/**
 * A webhook receiver (one item per entry; a batched POST carries NDJSON); `next(pick)` resolves with the first
 * matching entry. `status` answers every POST while set; `port` reuses a port chosen earlier.
 */
function receiver(options: { port?: number } = {}) {
  const received: Received[] = [];
  const posts: { count: number; lines: number; contentType: string | null }[] = [];
  const waiting: { pick: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  // `hold`, while set, keeps each answer back until it settles: the sender (one per target) waits, and the
  // entries written meanwhile pile up in its queue, which is what makes a batch form whatever the timing.
  const state: { status: number; hold: Promise<void> | null } = { status: 200, hold: null };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: options.port ?? 0, onListen: () => {} },
    async (req) => {
      const lines = (await req.text()).split("\n").filter((l) => l.trim());
      const count = Number(req.headers.get("x-minio-webhook-payload-count"));
      posts.push({ count, lines: lines.length, contentType: req.headers.get("content-type") });
      for (const line of lines) {
        const item = {
          path: new URL(req.url).pathname,
          authorization: req.headers.get("authorization"),
          contentType: req.headers.get("content-type"),
          count,
          body: JSON.parse(line),
        };
        received.push(item);
        for (const w of [...waiting]) {
          if (w.pick(item)) {
            (waiting.splice(waiting.indexOf(w), 1), w.resolve(item));
          }
        }
      }
      if (state.hold) await state.hold;
      return new Response(null, { status: state.status });
    },
  );
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    received,
    posts,
    state,
    /** The first entry `pick` accepts; fails after 30 s rather than hang. */
    next: (pick: (r: Received) => boolean) => {
      const found = received.find(pick);
      if (found) return Promise.resolve(found);
      return new Promise<Received>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching entry among ${received.length} received`)),
          30_000,
        );
        waiting.push({ pick, resolve: (r) => (clearTimeout(timer), resolve(r)) });
      });
    },
    close: () => server.shutdown(),
  };
}

/** Reads log lines until one's text matches; fails if the stream ends first (it is cut after 30 s). */
async function waitForLog(
  lines: AsyncGenerator<s3.LogInfo>,
  pattern: RegExp,
  seen: string[] = [],
): Promise<void> {
  for (;;) {
    const { value, done } = await lines.next();
    if (done) throw new Error(`no log line matched ${pattern}; saw:\n${seen.join("\n")}`);
    const text = value?.message ?? value?.error?.message ?? "";
    seen.push(text);
    if (pattern.test(text)) return;
  }
}

Deno.test("audit webhook: one MinIO audit entry per request, live from config KV, without signatures", async () => {
  const f = await startStorage();
  const hook = receiver();
  try {
    const applied = await s3.setConfigKV(
      f.root,
      `audit_webhook:deck endpoint=${hook.url}/api/ingest?token=t0k auth_token=opaque-token-1`,
    );
    assert.equal(applied.restart, false, "audit targets apply without a restart");
    await s3.makeBucket(f.root, "audited");
    await s3.putObject(f.root, "audited", "dir/file one.txt", "0123456789");
    const put = await hook.next((r) => r.body.api?.name === "PutObject");
    assert.equal(put.authorization, "opaque-token-1", "auth_token is sent verbatim");
    const entry = put.body;
    assert.equal(entry.version, "1");
    assert.equal(entry.trigger, "incoming");
    assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.deepEqual(
      {
        bucket: entry.api.bucket,
        object: entry.api.object,
        status: entry.api.status,
        code: entry.api.statusCode,
        rx: entry.api.rx,
      },
      { bucket: "audited", object: "dir/file one.txt", status: "OK", code: 200, rx: 10 },
    );
    assert.match(entry.api.timeToResponse, /^\d+ns$/);
    assert.equal(entry.requestHeader["Content-Length"], "10");
    assert.equal(entry.accessKey, f.storage.root.accessKey);
    assert.match(
      entry.requestHeader.Authorization,
      /Credential=[^/]+\//,
      "log search reads the access key from it",
    );
    assert.doesNotMatch(JSON.stringify(entry), /Signature=[0-9a-f]{16}/, "no signature leaves the server");
    assert.ok(entry.requestID && entry.remotehost === "127.0.0.1");

    const info = await s3.serverInfo(f.root);
    assert.ok(info.deploymentID);
    const admin = await hook.next((r) => r.body.api?.name === "ServerInfo");
    assert.equal(admin.body.deploymentid, info.deploymentID);

    await s3.delConfigKV(f.root, "audit_webhook:deck");
    await s3.setConfigKV(f.root, `audit_webhook:probe endpoint=${hook.url}/probe`);
    await s3.putObject(f.root, "audited", "after.txt", "x");
    await hook.next((r) => r.path === "/probe" && r.body.api?.object === "after.txt");
    assert.ok(
      !hook.received.some((r) => r.path === "/api/ingest" && r.body.api?.object === "after.txt"),
      "a removed target receives nothing more",
    );
  } finally {
    await f.close();
    await hook.close();
  }
});

Deno.test("logger webhook and an unreachable target: log entries are delivered; a dead endpoint shows in the server log", async () => {
  const f = await startStorage();
  const hook = receiver();
  const stop = new AbortController();
  const cut = setTimeout(() => stop.abort(), 30_000);
  try {
    await s3.setConfigKV(f.root, `logger_webhook:ops endpoint=${hook.url}/log`);
    f.storage.streams.log.publish({
      level: "ERROR",
      time: new Date().toISOString(),
      message: "disk is on fire",
      error: { message: "disk is on fire", source: ["a.ts:1"] },
    });
    const delivered = await hook.next((r) => r.body.message === "disk is on fire");
    assert.equal(delivered.body.level, "ERROR");
    assert.equal(delivered.body.error.message, "disk is on fire");

    await s3.setConfigKV(f.root, "audit_webhook:dead endpoint=http://127.0.0.1:9/nothing-listens-here");
    await s3.listBuckets(f.root);
    // The last 1,000 error entries come first, so the line is found whenever the stream starts.
    const lines = s3.consoleLog(f.root, { node: "", limit: 1000, logType: "error" }, stop.signal);
    await waitForLog(
      lines,
      /audit_webhook target "dead": offline: POST http:\/\/127\.0\.0\.1:9\/nothing-listens-here/,
    );
    await lines.return(undefined);
  } finally {
    await s3.delConfigKV(f.root, "audit_webhook:dead").catch(() => {});
    clearTimeout(cut);
    stop.abort();
    await f.close();
    await hook.close();
  }
});

/** A loopback port nothing listens on (yet). */
function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

async function queuedText(dir: string): Promise<string> {
  let text = "";
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.name.endsWith(".log")) text += await Deno.readTextFile(`${dir}/${entry.name}`);
    }
  } catch { /* not created yet */ }
  return text;
}

Deno.test("audit webhook with queue_dir: entries for an unreachable endpoint wait on disk across a restart, then arrive in order, once each", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-s3-" });
  const queueDir = await Deno.makeTempDir({ prefix: "deck-auditq-" });
  const port = freePort();
  let storage = await startEmbeddedStorage({ dataDir, port: 0 });
  let hook: ReturnType<typeof receiver> | undefined;
  try {
    let root = new S3Client({ endpoint: storage.url, credentials: storage.root });
    await s3.setConfigKV(
      root,
      `audit_webhook:kept endpoint=http://127.0.0.1:${port}/in queue_dir=${queueDir} queue_size=1000 retry_interval=200ms`,
    );
    await s3.makeBucket(root, "queued");
    for (let i = 0; i < 8; i++) await s3.putObject(root, "queued", `o-${i}`, `${i}`);
    // Every entry is on disk before it is sent; the endpoint is down, so they stay there.
    await eventually(
      "the entries in the queue directory",
      async () => (await queuedText(`${queueDir}/audit_webhook-kept`)).includes('"object":"o-7"'),
    );
    await storage.close();

    storage = await startEmbeddedStorage({ dataDir, port: 0 });
    root = new S3Client({ endpoint: storage.url, credentials: storage.root });
    await s3.putObject(root, "queued", "after-restart", "x");
    hook = receiver({ port });
    await hook.next((r) => r.body.api?.object === "after-restart");
    const puts = hook.received.filter((r) => r.body.api?.name === "PutObject").map((r) => r.body.api.object);
    assert.deepEqual(
      puts,
      ["o-0", "o-1", "o-2", "o-3", "o-4", "o-5", "o-6", "o-7", "after-restart"],
      "in order, none lost",
    );
    const ids = hook.received.map((r) => r.body.requestID);
    assert.equal(new Set(ids).size, ids.length, "none sent twice");
    assert.ok(
      hook.received.every((r) => r.contentType === "application/json" && r.count === 1),
      "batch_size 1: one JSON entry per POST",
    );
  } finally {
    await storage.close();
    await hook?.close();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    await Deno.remove(queueDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("audit webhook batch_size, max_retry and retry_interval; bad values are refused", async () => {
  const f = await startStorage();
  const hook = receiver();
  const stop = new AbortController();
  const cut = setTimeout(() => stop.abort(), 30_000);
  try {
    for (
      const bad of [
        "queue_dir=relative/dir",
        "batch_size=0",
        "retry_interval=2m",
        "max_retry=-1",
        "http_timeout=soon",
      ]
    ) {
      await rejectsWith(
        s3.setConfigKV(f.root, `audit_webhook:bad endpoint=${hook.url}/x ${bad}`),
        "XMinioAdminConfigBadJSON",
      );
    }

    await s3.setConfigKV(f.root, `audit_webhook:batched endpoint=${hook.url}/batch batch_size=4`);
    await s3.makeBucket(f.root, "batched");
    const held = Promise.withResolvers<void>();
    hook.state.hold = held.promise;
    await Promise.all(
      Array.from(
        { length: 12 },
        (_, i) => s3.putObject(f.root, "batched", `b-${String(i).padStart(2, "0")}`, "x"),
      ),
    );
    hook.state.hold = null;
    held.resolve();
    await eventually(
      "all twelve uploads",
      () =>
        hook.received.filter((r) => r.path === "/batch" && r.body.api?.name === "PutObject").length === 12,
    );
    const batchPosts = hook.posts.filter((p) => p.contentType === null);
    assert.ok(
      batchPosts.length > 0 && batchPosts.every((p) => p.count === p.lines && p.lines <= 4),
      JSON.stringify(hook.posts),
    );
    assert.ok(batchPosts.some((p) => p.lines > 1), "entries travel as NDJSON batches");
    assert.ok(
      hook.posts.every((p) => p.contentType === null),
      "a batching target sends no JSON content type",
    );
    await s3.delConfigKV(f.root, "audit_webhook:batched");

    // An endpoint that refuses everything: each batch is tried once and retried twice, then dropped and logged.
    hook.state.status = 500;
    // The server's last 1,000 log entries come first, so nothing logged before the stream starts is missed.
    const lines = s3.consoleLog(f.root, { node: "", limit: 1000, logType: "all" }, stop.signal);
    await s3.setConfigKV(
      f.root,
      `audit_webhook:flaky endpoint=${hook.url}/flaky max_retry=2 retry_interval=100ms`,
    );
    await s3.putObject(f.root, "batched", "refused", "x");
    await waitForLog(
      lines,
      /audit_webhook target "flaky": \d+ entries dropped: still not delivered after 2 retries/,
    );
    const tries = () => {
      const count = new Map<string, number>();
      for (const r of hook.received.filter((r) => r.path === "/flaky")) {
        count.set(r.body.requestID, (count.get(r.body.requestID) ?? 0) + 1);
      }
      return count;
    };
    assert.ok([...tries().values()].includes(3), JSON.stringify([...tries()]));

    // Back to healthy: later entries are delivered (the target is not stuck), each entry tried at most 3 times.
    hook.state.status = 200;
    await s3.putObject(f.root, "batched", "accepted", "x");
    await hook.next((r) => r.path === "/flaky" && r.body.api?.object === "accepted");
    assert.ok([...tries().values()].every((n) => n <= 3), "never more than one try and two retries");
    await lines.return(undefined);
  } finally {
    clearTimeout(cut);
    stop.abort();
    await s3.delConfigKV(f.root, "audit_webhook:flaky").catch(() => {});
    await f.close();
    await hook.close();
  }
});

Deno.test("logger webhook proxy: entries travel through the configured HTTP proxy", async () => {
  const f = await startStorage();
  const seen: { url: string; body: string }[] = [];
  // A forward proxy as far as plain HTTP goes: it receives the absolute URL and answers for the endpoint.
  const proxy = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    seen.push({ url: req.url, body: await req.text() });
    return new Response(null, { status: 200 });
  });
  try {
    await s3.setConfigKV(
      f.root,
      `logger_webhook:proxied endpoint=http://logs.example.invalid/ingest proxy=http://127.0.0.1:${
        (proxy.addr as Deno.NetAddr).port
      }`,
    );
    f.storage.streams.log.publish({
      level: "ERROR",
      time: new Date().toISOString(),
      message: "through the proxy",
      error: { message: "through the proxy" },
    });
    await eventually("the entry at the proxy", () => seen.some((s) => s.body.includes("through the proxy")));
    assert.ok(
      seen.some((s) => s.url.startsWith("http://logs.example.invalid/ingest")),
      JSON.stringify(seen.map((s) => s.url)),
    );
  } finally {
    await f.close();
    await proxy.shutdown();
  }
});

Deno.test("audit webhook http_timeout: an endpoint that never answers is given up after the timeout", async () => {
  const f = await startStorage();
  const release = Promise.withResolvers<void>();
  let hits = 0;
  const silent = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async () => {
    hits++;
    await release.promise;
    return new Response(null);
  });
  const stop = new AbortController();
  const cut = setTimeout(() => stop.abort(), 30_000);
  try {
    // The server's last 1,000 log entries come first, so nothing logged before the stream starts is missed.
    const lines = s3.consoleLog(f.root, { node: "", limit: 1000, logType: "all" }, stop.signal);
    await s3.setConfigKV(
      f.root,
      `audit_webhook:silent endpoint=http://127.0.0.1:${
        (silent.addr as Deno.NetAddr).port
      }/ http_timeout=300ms max_retry=1 retry_interval=50ms`,
    );
    await s3.listBuckets(f.root);
    const messages: string[] = [];
    await waitForLog(
      lines,
      /audit_webhook target "silent": \d+ entries dropped: still not delivered after 1 retries/,
      messages,
    );
    assert.ok(
      messages.some((m) => /audit_webhook target "silent": offline: POST .*: .*(timed out|timeout)/i.test(m)),
      messages.join("\n"),
    );
    assert.ok(hits >= 2, "one try and one retry reached the endpoint");
    await lines.return(undefined);
  } finally {
    clearTimeout(cut);
    stop.abort();
    release.resolve();
    await s3.delConfigKV(f.root, "audit_webhook:silent").catch(() => {});
    await f.close();
    await silent.shutdown();
  }
});
