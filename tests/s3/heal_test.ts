/**
 * Heal over the admin API with Deck's client: an intact bucket is all "ok"; a data file with flipped bytes,
 * a multipart object whose data file is gone and inline bytes corrupted in the records log are reported
 * (and stay listed); what can be restored (a lost bucket.json, missing directories) is restored.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { keyPathStem } from "../../server/storage/fs/names.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { rejectsWith, startStorage } from "./fixture.ts";
import { dataFileOf, heal, RECURSIVE } from "./heal_helpers.ts";
import { eventually } from "../eventually.ts";

type Item = s3.HealResultItem;

const stateOf = (item: Item, when: "before" | "after") => item.before && item[when].drives?.[0].state;
const objectStates = (items: Item[]) =>
  Object.fromEntries(
    items.filter((i) => i.type === "object").map((
      i,
    ) => [i.object, `${stateOf(i, "before")}→${stateOf(i, "after")}`]),
  );

const bytes = (size: number, seed: number) =>
  Uint8Array.from({ length: size }, (_, i) => (i * 31 + seed) % 251);

async function multipart(client: s3.S3Client, bucket: string, key: string): Promise<void> {
  const id = await s3.createMultipartUpload(client, bucket, key);
  const first = await s3.uploadPart(client, bucket, key, id, 1, bytes(5 * 1024 * 1024, 1));
  const second = await s3.uploadPart(client, bucket, key, id, 2, bytes(300 * 1024, 2));
  await s3.completeMultipartUpload(client, bucket, key, id, [{ partNumber: 1, etag: first }, {
    partNumber: 2,
    etag: second,
  }]);
}

Deno.test("heal: intact data is ok; corrupt and missing data is reported and never dropped", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "intact");
    await s3.putBucketVersioning(f.root, "intact", { status: "Enabled" });
    await s3.putObject(f.root, "intact", "small.txt", "tiny");
    await s3.putObject(f.root, "intact", "big.bin", bytes(400 * 1024, 3));
    await multipart(f.root, "intact", "parts.bin");
    await s3.deleteObject(f.root, "intact", "small.txt");
    await s3.putBucketPolicy(
      f.root,
      "intact",
      JSON.stringify({
        Version: "2012-10-17",
        Statement: [{
          Effect: "Allow",
          Principal: { AWS: ["*"] },
          Action: ["s3:GetObject"],
          Resource: ["arn:aws:s3:::intact/*"],
        }],
      }),
    );
    const intact = await heal(f.root, "intact");
    assert.deepEqual(intact.map((i) => i.type), [
      "bucket",
      "bucket-metadata",
      "object",
      "object",
      "object",
      "object",
    ]);
    assert.ok(
      intact.every((i) => stateOf(i, "before") === "ok" && stateOf(i, "after") === "ok"),
      JSON.stringify(intact, null, 1),
    );
    const parts = intact.find((i) => i.object === "parts.bin")!;
    assert.equal(parts.objectSize, 5 * 1024 * 1024 + 300 * 1024);
    assert.equal(parts.detail, "", "the multipart ETag was verified over its recorded part sizes");

    await s3.makeBucket(f.root, "damaged");
    await s3.putObject(f.root, "damaged", "good.bin", bytes(300 * 1024, 4));
    await s3.putObject(f.root, "damaged", "flipped.bin", bytes(300 * 1024, 5));
    await multipart(f.root, "damaged", "gone.bin");
    await s3.putObject(f.root, "damaged", "inline.txt", "INLINE-PAYLOAD-0123456789");
    const flipped = await Deno.open(await dataFileOf(f.dataDir, "damaged", "flipped.bin"), {
      read: true,
      write: true,
    });
    await flipped.seek(1000, Deno.SeekMode.Start);
    await flipped.write(new Uint8Array([0xff, 0xfe, 0xfd]));
    flipped.close();
    await Deno.remove(await dataFileOf(f.dataDir, "damaged", "gone.bin"));
    const log = `${f.dataDir}/buckets/damaged/records.log`;
    const logBytes = await Deno.readFile(log);
    const at = new TextDecoder("latin1").decode(logBytes).indexOf("INLINE-PAYLOAD");
    logBytes.set(new TextEncoder().encode("XXXXXX"), at);
    await Deno.writeFile(log, logBytes);

    const damaged = await heal(f.root, "damaged");
    assert.deepEqual(objectStates(damaged), {
      "flipped.bin": "corrupt→corrupt",
      "gone.bin": "missing→missing",
      "good.bin": "ok→ok",
      "inline.txt": "corrupt→corrupt",
    });
    assert.match(
      damaged.find((i) => i.object === "flipped.bin")!.detail,
      /does not match its recorded checksum/,
    );
    assert.match(damaged.find((i) => i.object === "gone.bin")!.detail, /missing/);
    const listed = await s3.listAllObjects(f.root, "damaged");
    assert.deepEqual(listed.objects.map((o) => o.key).sort(), [
      "flipped.bin",
      "gone.bin",
      "good.bin",
      "inline.txt",
    ], "nothing was silently dropped");

    const only = await heal(f.root, "damaged", "good.bin", { ...RECURSIVE, recursive: false });
    assert.deepEqual(
      only.map((i) => `${i.type}:${i.object}`),
      ["bucket:", "object:good.bin"],
      "without recursive only the named object",
    );
  } finally {
    await f.close();
  }
});

Deno.test("heal: restores a lost bucket.json and missing directories; a dry run only reports", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-heal-" });
  let storage = await startEmbeddedStorage({ dataDir, port: 0 });
  try {
    let client = new s3.S3Client({ endpoint: storage.url, credentials: storage.root });
    await s3.makeBucket(client, "kept");
    await s3.putBucketVersioning(client, "kept", { status: "Enabled" });
    await s3.putObject(client, "kept", "a.txt", "alpha");
    await storage.close();
    await Deno.remove(`${dataDir}/buckets/kept/bucket.json`);
    await Deno.remove(`${dataDir}/buckets/kept/config`, { recursive: true });
    storage = await startEmbeddedStorage({ dataDir, port: 0 });
    client = new s3.S3Client({ endpoint: storage.url, credentials: storage.root });
    assert.deepEqual(
      (await s3.listBuckets(client)).map((b) => b.name),
      [],
      "without bucket.json the bucket is not loaded",
    );

    const dry = await heal(client, "", "", { ...RECURSIVE, dryRun: true });
    const dryBucket = dry.find((i) => i.type === "bucket")!;
    assert.equal(`${stateOf(dryBucket, "before")}→${stateOf(dryBucket, "after")}`, "corrupt→corrupt");
    const system = dry.filter((i) => i.type === "metadata");
    assert.ok(
      system.some((i) => i.detail === "deployment.json" && stateOf(i, "before") === "ok"),
      "a heal of everything checks the system metadata",
    );

    const healed = await heal(client, "", "", RECURSIVE);
    const bucket = healed.find((i) => i.type === "bucket")!;
    assert.equal(`${stateOf(bucket, "before")}→${stateOf(bucket, "after")}`, "corrupt→ok");
    assert.match(bucket.detail, /restored: missing config directory; bucket.json is missing or unreadable/);
    assert.deepEqual((await s3.listBuckets(client)).map((b) => b.name), ["kept"]);
    assert.equal(await (await s3.getObject(client, "kept", "a.txt")).text(), "alpha");
    assert.equal(
      (await s3.getBucketVersioning(client, "kept")).status,
      "Enabled",
      "versioning inferred from the records",
    );
    assert.deepEqual(objectStates(healed), { "a.txt": "ok→ok" });
  } finally {
    await storage.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("heal API: tokens, force-stop and a missing bucket as madmin expects", async () => {
  const f = await startStorage();
  try {
    await s3.makeBucket(f.root, "api");
    await rejectsWith(s3.healStart(f.root, "nowhere", "", RECURSIVE), "NoSuchBucket");
    const started = await s3.healStart(f.root, "api", "", RECURSIVE);
    assert.match(started.clientToken, /^[0-9a-f-]{36}$/);
    await rejectsWith(s3.healStatus(f.root, "api", "", "wrong-token"), "XMinioHealInvalidClientToken");
    const stopped = await s3.healStart(f.root, "api", "", RECURSIVE, { forceStop: true });
    assert.ok(stopped.clientToken === started.clientToken || stopped.clientToken === "unknown");
    const background = await s3.backgroundHealStatus(f.root);
    assert.ok(Array.isArray(background.sets));
  } finally {
    await f.close();
  }
});

Deno.test("heal remove: dangling versions and old unreferenced data files go (a dry run only says so); intact data and recent files stay", async () => {
  const f = await startStorage();
  // An audit webhook receiver: each removal is audited as MinIO's internal DeleteDanglingObject event.
  // deno-lint-ignore no-explicit-any -- audit entries are checked field by field below
  const audited: Record<string, any>[] = [];
  const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    audited.push(JSON.parse(await req.text()));
    return new Response(null);
  });
  try {
    await s3.setConfigKV(
      f.root,
      `audit_webhook:heal endpoint=http://127.0.0.1:${(hook.addr as Deno.NetAddr).port}/`,
    );
    await s3.makeBucket(f.root, "dangling");
    await s3.putObject(f.root, "dangling", "good.bin", bytes(300 * 1024, 6));
    await s3.putObject(f.root, "dangling", "gone.bin", bytes(300 * 1024, 7));
    await s3.putObject(f.root, "dangling", "flipped.bin", bytes(300 * 1024, 8));
    await Deno.remove(await dataFileOf(f.dataDir, "dangling", "gone.bin"));
    const flipped = await Deno.open(await dataFileOf(f.dataDir, "dangling", "flipped.bin"), {
      read: true,
      write: true,
    });
    await flipped.write(new Uint8Array([0, 0, 0, 0]));
    flipped.close();
    // Two data files no record points at: one an hour old, one just written (a write may be in progress).
    const good = await dataFileOf(f.dataDir, "dangling", "good.bin");
    const fanOf = (key: string) => `${f.dataDir}/buckets/dangling/objects/${keyPathStem(key)}`;
    const oldOrphan = `${fanOf("old-orphan")}.${crypto.randomUUID()}.data`;
    const newOrphan = `${fanOf("new-orphan")}.${crypto.randomUUID()}.data`;
    for (const path of [oldOrphan, newOrphan]) {
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.copyFile(good, path);
    }
    const hourAgo = new Date(Date.now() - 3600_000);
    await Deno.utime(oldOrphan, hourAgo, hourAgo);
    const exists = (path: string) => Deno.stat(path).then(() => true, () => false);
    const orphanItems = (items: Item[]) =>
      items.filter((i) => i.type === "object" && /belongs to no object version/.test(i.detail));

    const dry = await heal(f.root, "dangling", "", { ...RECURSIVE, remove: true, dryRun: true });
    assert.deepEqual(objectStates(dry), {
      "flipped.bin": "corrupt→corrupt",
      "gone.bin": "missing→missing",
      "good.bin": "ok→ok",
      "": "corrupt→corrupt",
    });
    assert.ok(
      dry.filter((i) => i.object.endsWith("e.bin") || i.object === "flipped.bin").every((i) =>
        i.object === "good.bin" || /^would be removed \(dry run\)/.test(i.detail)
      ),
    );
    assert.equal(orphanItems(dry).length, 2);
    assert.equal(
      (await s3.listAllObjects(f.root, "dangling")).objects.length,
      3,
      "a dry run removes nothing",
    );
    assert.ok(await exists(oldOrphan));

    const removed = await heal(f.root, "dangling", "", { ...RECURSIVE, remove: true });
    const byObject = Object.fromEntries(removed.filter((i) => i.object).map((i) => [i.object, i]));
    assert.equal(
      `${stateOf(byObject["gone.bin"], "before")}→${stateOf(byObject["gone.bin"], "after")}`,
      "missing→missing",
    );
    assert.match(byObject["gone.bin"].detail, /^removed: data file .* is missing/);
    assert.equal(
      `${stateOf(byObject["flipped.bin"], "before")}→${stateOf(byObject["flipped.bin"], "after")}`,
      "corrupt→missing",
    );
    assert.match(byObject["flipped.bin"].detail, /^removed: the data does not match its recorded checksum/);
    assert.equal(byObject["good.bin"].detail, "");
    const orphans = orphanItems(removed);
    assert.equal(orphans.length, 2);
    assert.ok(
      orphans.some((i) => /^removed: /.test(i.detail) && stateOf(i, "after") === "missing"),
      JSON.stringify(orphans),
    );
    assert.ok(
      orphans.some((i) =>
        /too recent to rule out a write in progress/.test(i.detail) && stateOf(i, "after") === "corrupt"
      ),
    );
    assert.equal(await exists(oldOrphan), false);
    assert.equal(await exists(newOrphan), true);
    assert.deepEqual((await s3.listAllObjects(f.root, "dangling")).objects.map((o) => o.key), ["good.bin"]);
    assert.deepEqual(
      await (await s3.getObject(f.root, "dangling", "good.bin")).bytes(),
      bytes(300 * 1024, 6),
    );

    const after = await heal(f.root, "dangling");
    assert.deepEqual(
      objectStates(after),
      { "good.bin": "ok→ok", "": "corrupt→corrupt" },
      "only the recent file is still reported",
    );

    const dangling = () => audited.filter((e) => e.event === "DeleteDanglingObject");
    await eventually("both dangling deletions in the audit log", () => dangling().length >= 2);
    assert.deepEqual(dangling().map((e) => [e.trigger, e.api.bucket, e.api.objects[0].objectName]).sort(), [
      ["DeleteDanglingObject", "dangling", "flipped.bin"],
      ["DeleteDanglingObject", "dangling", "gone.bin"],
    ]);
    assert.match(dangling()[0].error, /^removed: /);
  } finally {
    await f.close();
    await hook.shutdown();
  }
});
