/**
 * Durability: kill -9 the storage server during 50 concurrent uploads (and during a stream of small ones),
 * restart it on the same data, and check that every acknowledged object reads back whole with its ETag and
 * that nothing partial is visible.
 */
import assert from "node:assert/strict";
import { md5Hex } from "../../server/lib/s3/md5.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { getObject, listAllObjects, makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { freePort, spawnStorage } from "../storage_process.ts";

const root = { accessKey: "crashtestroot", secretKey: "crash-test-secret" };

function payload(i: number): Uint8Array {
  const size = 256 * 1024 + (i % 50) * 160 * 1024;
  const bytes = new Uint8Array(size);
  for (let j = 0; j < size; j += 997) bytes[j] = (i * 31 + j) & 0xff;
  bytes[size - 1] = i;
  return bytes;
}

/** What a test sees after the kill: the restarted server's client, and a way to restart it again (SIGTERM). */
interface AfterKill {
  client: S3Client;
  acknowledged: Map<string, string>;
  restart: () => Promise<S3Client>;
}

/**
 * Starts the storage with `bucket`, runs `load` (writers calling `acknowledge` for each write the server
 * acknowledged, until `killed()`) and kill -9s the server once `enough` writes were acknowledged; then
 * restarts it on the same data for `check`.
 */
async function killDuringLoad(
  bucket: string,
  enough: number,
  load: (
    client: S3Client,
    acknowledge: (key: string, etag: string) => void,
    killed: () => boolean,
  ) => Promise<void>[],
  check: (after: AfterKill) => Promise<void>,
) {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-crash-" });
  const port = await freePort();
  let server = await spawnStorage(dataDir, port, root);
  try {
    const client = new S3Client({ endpoint: server.url, credentials: root });
    await makeBucket(client, bucket);
    const acknowledged = new Map<string, string>();
    let killed = false;
    let markEnough!: () => void;
    const reached = new Promise<void>((resolve) => (markEnough = resolve));
    const writers = load(client, (key, etag) => {
      if (killed) return;
      acknowledged.set(key, etag);
      if (acknowledged.size >= enough) markEnough();
    }, () => killed);
    await Promise.race([reached, Promise.all(writers)]);
    server.child.kill("SIGKILL");
    killed = true;
    await server.child.status;
    await Promise.all(writers);
    server = await spawnStorage(dataDir, port, root);
    const restart = async () => {
      server.child.kill("SIGTERM");
      await server.child.status;
      server = await spawnStorage(dataDir, port, root);
      return new S3Client({ endpoint: server.url, credentials: root });
    };
    await check({ client: new S3Client({ endpoint: server.url, credentials: root }), acknowledged, restart });
  } finally {
    try {
      server.child.kill("SIGKILL");
    } catch { /* already gone */ }
    await server.child.status;
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

Deno.test("kill -9 during 50 concurrent uploads loses no acknowledged object and shows nothing partial", async () => {
  // Fifty uploads stay in flight until the kill: each writer starts its next upload as soon as one is
  // answered, so the kill always lands on uploads under way however fast or slow the machine is.
  let started = 0;
  const uploads = (
    client: S3Client,
    acknowledge: (key: string, etag: string) => void,
    killed: () => boolean,
  ) =>
    Array.from({ length: 50 }, async (_, i) => {
      for (let n = 0; !killed(); n++) {
        const number = i + 50 * n;
        started++;
        try {
          acknowledge(
            `obj-${number}`,
            (await putObject(client, "crash", `obj-${number}`, payload(number))).etag,
          );
        } catch {
          // Interrupted by the kill: not acknowledged, so it may be absent, but never partial.
          return;
        }
      }
    });
  await killDuringLoad("crash", 10, uploads, async ({ client: after, acknowledged }) => {
    assert.ok(acknowledged.size >= 10, `${acknowledged.size} uploads were acknowledged before the kill`);
    assert.ok(acknowledged.size < started, "the kill interrupted uploads in flight");
    for (const [key, etag] of acknowledged) {
      const res = await getObject(after, "crash", key);
      const bytes = new Uint8Array(await res.arrayBuffer());
      assert.equal(md5Hex(bytes), etag, `${key} reads back whole`);
    }
    const listed = await listAllObjects(after, "crash");
    for (const object of listed.objects) {
      assert.match(object.key, /^obj-\d+$/, "no temp file is listed as an object");
      const i = Number(object.key.slice(4));
      const bytes = new Uint8Array(await (await getObject(after, "crash", object.key)).arrayBuffer());
      assert.equal(md5Hex(bytes), md5Hex(payload(i)), `${object.key} is complete`);
      assert.equal(object.etag, md5Hex(payload(i)));
    }
    for (const key of acknowledged.keys()) {
      assert.ok(listed.objects.some((o) => o.key === key), `${key} is listed`);
    }
  });
});

/** A small object's bytes (inline in the bucket's records log), derived from its key. */
function smallPayload(writer: number, n: number): Uint8Array {
  const bytes = new Uint8Array(1024 + ((writer * 7919 + n * 131) % 7168));
  for (let j = 0; j < bytes.length; j++) bytes[j] = (writer * 17 + n * 3 + j) & 0xff;
  return bytes;
}

Deno.test("kill -9 while small objects are written through group commits loses none acknowledged, and the log takes writes after restart", async () => {
  // Eight writers, each putting one object after another until the server dies under them.
  const writers = (
    client: S3Client,
    acknowledge: (key: string, etag: string) => void,
    killed: () => boolean,
  ) =>
    Array.from({ length: 8 }, async (_, w) => {
      for (let n = 0; !killed(); n++) {
        try {
          acknowledge(
            `s-${w}-${n}`,
            (await putObject(client, "small", `s-${w}-${n}`, smallPayload(w, n))).etag,
          );
        } catch {
          return;
        }
      }
    });
  await killDuringLoad("small", 300, writers, async ({ client: after, acknowledged, restart }) => {
    const listed = await listAllObjects(after, "small");
    for (const [key, etag] of acknowledged) {
      assert.ok(
        listed.objects.some((o) => o.key === key && o.etag === etag),
        `${key} is listed with its ETag`,
      );
    }
    for (const object of listed.objects) {
      const [, w, n] = object.key.split("-").map(Number);
      const bytes = new Uint8Array(await (await getObject(after, "small", object.key)).arrayBuffer());
      assert.equal(md5Hex(bytes), md5Hex(smallPayload(w, n)), `${object.key} is complete`);
    }
    // Whatever the kill tore off the log's end, writes go on after it and survive the next restart.
    const { etag } = await putObject(after, "small", "after-restart", smallPayload(9, 9));
    const last = await restart();
    const bytes = new Uint8Array(await (await getObject(last, "small", "after-restart")).arrayBuffer());
    assert.equal(md5Hex(bytes), etag);
    assert.equal((await listAllObjects(last, "small")).objects.length, listed.objects.length + 1);
  });
});
