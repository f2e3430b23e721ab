/**
 * The embedded storage's live streams over real HTTP with Deck's own admin client: trace, console log,
 * ListenBucketNotification and health info in MinIO's shapes, their filters, and a disconnect ending the
 * server-side work.
 */
import assert from "node:assert/strict";
import { adminJson, adminSend } from "../../server/lib/s3/admin/request.ts";
import * as s3 from "../../server/lib/s3/mod.ts";
import type { StorageFixture } from "./fixture.ts";
import { rejectsWith, startStorage } from "./fixture.ts";
import { eventually, within } from "../eventually.ts";

/** Opens a stream, waits until the server has subscribed, runs `act`, and returns the first value `pick` accepts. */
async function firstMatching<T>(
  open: (signal: AbortSignal) => AsyncGenerator<T>,
  subscribers: () => number,
  act: () => Promise<unknown>,
  pick: (value: T) => boolean,
): Promise<T> {
  const stop = new AbortController();
  await eventually("earlier streams to end", () => subscribers() === 0);
  const iterator = open(stop.signal);
  const first = iterator.next();
  first.catch(() => {});
  try {
    await eventually("the server to subscribe", () => subscribers() > 0);
    await act();
    let next = await first;
    while (!next.done && !pick(next.value)) next = await iterator.next();
    assert.ok(!next.done, "the stream ended before the expected value");
    return next.value;
  } finally {
    // A generator's return() waits for a pending next(): give up on it after a while rather than hang.
    await within("the stream to close", iterator.return(undefined), 2000).catch(() => {});
    stop.abort();
  }
}

Deno.test("trace: MinIO TraceInfo records, type and error filters, and a disconnect ends the subscription", async () => {
  const f = await startStorage();
  const requests = f.storage.streams.requests;
  const all = { s3: true, internal: false, storage: false, os: false, errorsOnly: false, threshold: "0s" };
  try {
    await s3.makeBucket(f.root, "traced");
    const put = await firstMatching(
      (signal) => s3.serviceTrace(f.root, all, signal),
      () => requests.subscriberCount,
      () => s3.putObject(f.root, "traced", "dir/a b.txt", "hello"),
      (t) => t.funcname === "s3.PutObject",
    );
    assert.equal(put.type, 4, "S3 type bit");
    assert.equal(put.path, "/traced/dir/a b.txt");
    assert.equal(put.http?.request.method, "PUT");
    assert.equal(put.http?.response.statuscode, 200);
    assert.equal(put.http?.stats.inputbytes, 5);
    assert.equal(put.http?.request.client, "127.0.0.1");
    assert.ok(put.dur > 0 && put.http!.stats.timetofirstbyte <= put.dur);
    assert.match(put.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    assert.match(
      put.http!.request.headers.Authorization[0],
      /Signature=\*REDACTED\*/,
      "signatures never leave the server",
    );
    await eventually(
      "the trace subscription to end after the client left",
      () => requests.subscriberCount === 0,
    );

    const admin = await firstMatching(
      (signal) => s3.serviceTrace(f.root, { ...all, s3: false, internal: true }, signal),
      () => requests.subscriberCount,
      () => s3.serverInfo(f.root),
      () => true,
    );
    assert.equal(admin.funcname, "admin.ServerInfo", "admin calls are internal, named as MinIO names them");
    assert.equal(admin.type, 8);

    const failed = await firstMatching(
      (signal) => s3.serviceTrace(f.root, { ...all, errorsOnly: true }, signal),
      () => requests.subscriberCount,
      async () => {
        await s3.putObject(f.root, "traced", "ok.txt", "fine");
        await rejectsWith(s3.headObject(f.root, "traced", "missing.txt"), "NoSuchKey");
      },
      () => true,
    );
    assert.equal(failed.funcname, "s3.HeadObject", "only the failed call");
    assert.equal(failed.http?.response.statuscode, 404);
    await rejectsWith(
      adminJson(f.root, { method: "GET", op: "trace", query: { s3: true, threshold: "soon" } }),
      "InvalidArgument",
    );
  } finally {
    await f.close();
  }
});

Deno.test("console log: the last N entries first, then live ones, in madmin's LogInfo shape", async () => {
  const f = await startStorage();
  const log = f.storage.streams.log;
  const entry = (message: string, level: "ERROR" | "INFO" = "ERROR") => ({
    level,
    time: new Date().toISOString(),
    api: { name: "PutObject", args: { bucket: "b", object: "o" } },
    requestID: `req-${message}`,
    message,
    ...(level === "ERROR" ? { error: { message, source: ["server/storage/s3_server.ts:1"] } } : {}),
  });
  try {
    log.publish(entry("started", "INFO"));
    for (const n of [1, 2, 3]) log.publish(entry(`old ${n}`));
    const stop = new AbortController();
    const lines = s3.consoleLog(f.root, { node: "", limit: 2, logType: "all" }, stop.signal);
    const first = await lines.next();
    const second = await lines.next();
    assert.deepEqual(
      [first.value?.message, second.value?.message],
      ["old 2", "old 3"],
      "the last two, oldest first",
    );
    assert.equal(first.value?.error?.message, "old 2");
    assert.equal(first.value?.node, new URL(f.storage.url).host);
    assert.equal(first.value?.ConsoleMsg, "", "error entries carry no console text");
    const live = lines.next();
    log.publish(entry("ready", "INFO"));
    const info = (await live).value;
    assert.equal(info?.ConsoleMsg, "ready", "then live entries; plain messages carry their console text");
    assert.equal(info?.level, "INFO");
    await lines.return(undefined).catch(() => {});
    stop.abort();
    await eventually("the log subscription to end", () => log.subscriberCount === 0);

    const errorsOnly = new AbortController();
    const filtered = s3.consoleLog(f.root, { node: "", limit: 1, logType: "info" }, errorsOnly.signal);
    assert.equal(
      (await filtered.next()).value?.message,
      "ready",
      "logType selects the level: the last INFO entry, not the later errors",
    );
    await filtered.return(undefined).catch(() => {});
    errorsOnly.abort();
  } finally {
    await f.close();
  }
});

Deno.test("ListenBucketNotification: event records as MinIO sends them, filtered by event, prefix and suffix", async () => {
  const f = await startStorage();
  const events = f.storage.streams.events;
  try {
    await s3.makeBucket(f.root, "watched");
    const created = await firstMatching(
      (signal) =>
        s3.listenBucketNotification(f.root, "watched", {
          events: ["s3:ObjectCreated:*"],
          prefix: "photos/",
          suffix: ".jpg",
        }, signal),
      () => events.subscriberCount,
      async () => {
        await s3.putObject(f.root, "watched", "notes/a.jpg", "skip: prefix");
        await s3.putObject(f.root, "watched", "photos/a.png", "skip: suffix");
        await s3.getObject(f.root, "watched", "photos/a.png").then((r) => r.body?.cancel());
        await s3.putObject(f.root, "watched", "photos/cat 1.jpg", "meow");
      },
      () => true,
    );
    assert.equal(created.eventName, "s3:ObjectCreated:Put");
    assert.equal(created.s3.object.key, "photos/cat 1.jpg", "listen streams send the raw key");
    assert.equal(created.s3.object.size, 4);
    assert.equal(created.s3.bucket.name, "watched");
    await eventually(
      "the listen subscription to end after the client left",
      () => events.subscriberCount === 0,
    );

    const raw = await f.root.send({
      method: "GET",
      bucket: "watched",
      query: { events: "s3:ObjectRemoved:*", ping: 1 },
    });
    const reader = raw.body!.getReader();
    const chunk = new TextDecoder().decode((await reader.read()).value);
    assert.equal(chunk, '{"Records":null}\n', "with ping=1 the keep-alive is an empty record list");
    assert.equal(raw.headers.get("content-type"), "text/event-stream");
    await reader.cancel();

    await rejectsWith(
      s3.listenBucketNotification(
        f.root,
        "watched",
        { events: ["s3:Nonsense"], prefix: "", suffix: "" },
        AbortSignal.timeout(5000),
      ).next(),
      "InvalidArgument",
    );
    await rejectsWith(
      s3.listenBucketNotification(f.root, "nowhere", {
        events: ["s3:ObjectCreated:*"],
        prefix: "",
        suffix: "",
      }, AbortSignal.timeout(5000)).next(),
      "NoSuchBucket",
    );
  } finally {
    await f.close();
  }
});

Deno.test("health info: a v3 report of this machine with a drive check, secrets redacted, the deadline validated", async () => {
  const f: StorageFixture = await startStorage();
  try {
    await s3.setConfigKV(
      f.root,
      "notify_webhook:secretive endpoint=http://127.0.0.1:1/hook?token=hunter2hunter auth_token=TopSecretToken123",
    );
    // deno-lint-ignore no-explicit-any -- the report is checked field by field below
    const report = await s3.healthInfo(f.root, "1h0m0s", AbortSignal.timeout(30_000)) as Record<string, any>;
    assert.equal(report.version, "3");
    const addr = new URL(f.storage.url).host;
    // madmin's shapes: every sys entry names its node in `addr`.
    for (
      const section of [
        "cpus",
        "partitions",
        "osinfo",
        "meminfo",
        "procinfo",
        "errors",
        "services",
        "config",
        "productinfo",
      ]
    ) {
      assert.equal(report.sys[section]?.[0]?.addr, addr, section);
    }
    assert.equal(
      report.sys.cpus[0].cpus.reduce((n: number, c: { cores: number }) => n + c.cores, 0),
      navigator.hardwareConcurrency,
    );
    assert.ok(report.sys.meminfo[0].total > 0 && report.sys.meminfo[0].limit > 0);
    assert.equal(report.sys.osinfo[0].info.os, "linux");
    assert.equal(report.sys.procinfo[0].pid, Deno.pid);
    assert.ok(report.sys.procinfo[0].num_fds > 0 && report.sys.procinfo[0].mem_info.rss > 0);
    const partition = report.sys.partitions[0].partitions[0];
    assert.ok(
      partition.mountpoint && f.dataDir.startsWith(partition.mountpoint) && partition.space_total > 0,
      JSON.stringify(partition),
    );
    assert.ok(Array.isArray(report.sys.netinfo), "network interfaces (none but loopback is possible)");
    for (const nic of report.sys.netinfo) {
      assert.ok(nic.addr === addr && nic.interface && (nic.driver || nic.error), JSON.stringify(nic));
    }
    assert.deepEqual(report.sys.services[0].services.map((s: { name: string }) => s.name), ["selinux"]);
    assert.ok(
      report.sys.errors[0].errors === undefined ||
        report.sys.errors[0].errors.every((e: string) =>
          ["audit is enabled", "updatedb is installed"].includes(e)
        ),
    );
    assert.ok(
      report.sys.config[0].config["rlimit-max"] !== 0 &&
        report.sys.config[0].config["time-info"].current_time,
    );
    const drive = report.minio.info.servers[0].drives[0];
    assert.equal(report.minio.error, undefined, "the write/read check passed");
    assert.equal(drive.state, "ok");
    assert.ok(drive.writethroughput > 0 && drive.readthroughput > 0 && drive.totalspace > 0);
    const text = JSON.stringify(report);
    assert.ok(!text.includes("TopSecretToken123") && !text.includes("hunter2hunter"), "secrets are redacted");
    assert.match(report.minio.config.config, /notify_webhook:secretive/);
    await rejectsWith(s3.healthInfo(f.root, "soon", AbortSignal.timeout(5000)), "InvalidRequest");

    // The data-type flags choose the sections, as madmin sends them.
    const only = await adminSend(f.root, {
      method: "GET",
      op: "healthinfo",
      query: {
        deadline: "10s",
        syscpu: "true",
        sysnet: "true",
        minioinfo: "false",
        minioconfig: "false",
        sysmem: "false",
      },
    });
    const reports = (await only.text()).trim().split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
    const chosen = reports[reports.length - 1];
    assert.deepEqual(Object.keys(chosen.sys).sort(), ["cpus", "kubernetes", "netinfo"]);
    assert.deepEqual(chosen.minio, {});
  } finally {
    await f.close();
  }
});
