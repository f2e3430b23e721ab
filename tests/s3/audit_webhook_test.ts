/**
 * Audit and logger webhooks configured through config KV: entries in MinIO's shape reach the endpoint as soon
 * as the target is set (no restart), credentials stay out, a dead endpoint is reported in the server's log,
 * and removing the target stops delivery.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/s3/mod.ts";
import { startStorage } from "./fixture.ts";

interface Received {
  path: string;
  authorization: string | null;
  // deno-lint-ignore no-explicit-any -- audit entries are checked field by field below
  body: Record<string, any>;
}

/** A webhook receiver on a free port; `next(pick)` resolves with the first matching POST. */
function receiver() {
  const received: Received[] = [];
  const waiting: { pick: (r: Received) => boolean; resolve: (r: Received) => void }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const item = { path: new URL(req.url).pathname, authorization: req.headers.get("authorization"), body: JSON.parse(await req.text()) };
    received.push(item);
    for (const w of [...waiting]) if (w.pick(item)) (waiting.splice(waiting.indexOf(w), 1), w.resolve(item));
    return new Response(null, { status: 200 });
  });
  return {
    url: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`,
    received,
    next: (pick: (r: Received) => boolean) => {
      const found = received.find(pick);
      return found ? Promise.resolve(found) : new Promise<Received>((resolve) => waiting.push({ pick, resolve }));
    },
    close: () => server.shutdown(),
  };
}

Deno.test("audit webhook: one MinIO audit entry per request, live from config KV, without signatures", async () => {
  const f = await startStorage();
  const hook = receiver();
  try {
    const applied = await s3.setConfigKV(f.root, `audit_webhook:deck endpoint=${hook.url}/api/ingest?token=t0k auth_token=opaque-token-1`);
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
      { bucket: entry.api.bucket, object: entry.api.object, status: entry.api.status, code: entry.api.statusCode, rx: entry.api.rx },
      { bucket: "audited", object: "dir/file one.txt", status: "OK", code: 200, rx: 10 },
    );
    assert.match(entry.api.timeToResponse, /^\d+ns$/);
    assert.equal(entry.requestHeader["Content-Length"], "10");
    assert.equal(entry.accessKey, f.storage.root.accessKey);
    assert.match(entry.requestHeader.Authorization, /Credential=[^/]+\//, "log search reads the access key from it");
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
    assert.ok(!hook.received.some((r) => r.path === "/api/ingest" && r.body.api?.object === "after.txt"), "a removed target receives nothing more");
  } finally {
    await f.close();
    await hook.close();
  }
});

Deno.test("logger webhook and an unreachable target: log entries are delivered; a dead endpoint shows in the server log", async () => {
  const f = await startStorage();
  const hook = receiver();
  const stop = new AbortController();
  try {
    await s3.setConfigKV(f.root, `logger_webhook:ops endpoint=${hook.url}/log`);
    f.storage.streams.log.publish({ level: "ERROR", time: new Date().toISOString(), message: "disk is on fire", error: { message: "disk is on fire", source: ["a.ts:1"] } });
    const delivered = await hook.next((r) => r.body.message === "disk is on fire");
    assert.equal(delivered.body.level, "ERROR");
    assert.equal(delivered.body.error.message, "disk is on fire");

    const lines = s3.consoleLog(f.root, { node: "", limit: 0, logType: "error" }, stop.signal);
    const offline = lines.next();
    await s3.setConfigKV(f.root, "audit_webhook:dead endpoint=http://127.0.0.1:9/nothing-listens-here");
    await s3.listBuckets(f.root);
    const line = (await offline).value!;
    assert.match(line.error?.message ?? "", /audit_webhook target "dead" is offline/);
    await lines.return(undefined);
  } finally {
    await s3.delConfigKV(f.root, "audit_webhook:dead").catch(() => {});
    stop.abort();
    await f.close();
    await hook.close();
  }
});
