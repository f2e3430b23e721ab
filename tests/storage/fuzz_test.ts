/**
 * Path safety: 10,000 generated bucket names and keys (dots, slashes, percent-encoding, unicode, "..") sent
 * through real requests never read or write outside the data directory, and every stored key reads back
 * exactly what was written under it.
 */
import assert from "node:assert/strict";
import { S3Client } from "../../server/lib/s3/client.ts";
import { EMPTY_SHA256, signHeaders } from "../../server/lib/s3/sigv4.ts";
import { getObject, makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";

const PIECES = [
  "..",
  ".",
  "/",
  "%2F",
  "%2e%2e",
  "\\",
  "a",
  "Z",
  "0",
  "-",
  "_",
  "é",
  "日本",
  "😀",
  " ",
  "~",
  "%00",
  "\u0000",
  "//",
  "../",
  "..\\",
  "etc",
  "passwd",
  "%",
  "+",
  "?",
  "#",
];

function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function generate(next: () => number, maxPieces: number): string {
  let out = "";
  const count = 1 + Math.floor(next() * maxPieces);
  for (let i = 0; i < count; i++) out += PIECES[Math.floor(next() * PIECES.length)];
  return out;
}

async function snapshot(
  dir: string,
  base = dir,
  out = new Map<string, number>(),
): Promise<Map<string, number>> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) await snapshot(path, base, out);
    else out.set(path.slice(base.length), (await Deno.stat(path)).mtime?.getTime() ?? 0);
  }
  return out;
}

Deno.test("10,000 generated bucket names and keys stay inside the data directory", async () => {
  const sandbox = await Deno.makeTempDir({ prefix: "deck-fuzz-" });
  await Deno.mkdir(`${sandbox}/outside/etc`, { recursive: true });
  await Deno.writeTextFile(`${sandbox}/outside/etc/passwd`, "sentinel");
  await Deno.writeTextFile(`${sandbox}/sentinel`, "sentinel");
  const storage = await startEmbeddedStorage({ dataDir: `${sandbox}/data`, port: 0 });
  const client = new S3Client({ endpoint: storage.url, credentials: storage.root });
  const before = await snapshot(sandbox);
  const next = random(42);
  const stored = new Map<string, string>();
  try {
    await makeBucket(client, "fuzz");
    const tasks: (() => Promise<void>)[] = [];
    for (let i = 0; i < 10_000; i++) {
      const bucket = generate(next, 4);
      const key = generate(next, 8);
      const body = `value-${i}`;
      tasks.push(async () => {
        // The bucket name goes into the path raw (fetch normalises dot segments, so encode what it would).
        const url = new URL(`${storage.url}/${encodeURIComponent(bucket)}`);
        const signed = await signHeaders({
          method: "PUT",
          url,
          headers: {},
          payloadHash: EMPTY_SHA256,
          credentials: storage.root,
          region: "us-east-1",
          service: "s3",
        });
        const res = await fetch(url, { method: "PUT", headers: signed.headers });
        await res.body?.cancel();
        assert.ok(res.status < 500 || res.status === 501, `bucket ${JSON.stringify(bucket)}: ${res.status}`);
        try {
          await putObject(client, "fuzz", key, body);
          stored.set(key, body);
        } catch (error) {
          assert.match(
            (error as { code?: string }).code ?? "",
            /XMinioInvalidObjectName|XMinioInvalidResourceName|KeyTooLongError|InvalidURI|SignatureDoesNotMatch|InvalidArgument/,
            `key ${JSON.stringify(key)}`,
          );
        }
      });
    }
    for (let i = 0; i < tasks.length; i += 16) await Promise.all(tasks.slice(i, i + 16).map((t) => t()));
    assert.ok(stored.size > 5000, `${stored.size} keys were stored`);
    for (const [key, body] of [...stored].slice(0, 2000)) {
      assert.equal(await (await getObject(client, "fuzz", key)).text(), body, `key ${JSON.stringify(key)}`);
    }
    const after = await snapshot(sandbox);
    for (const [path, mtime] of after) {
      if (!path.startsWith("/data/")) {
        assert.equal(before.get(path), mtime, `${path} outside the data directory was touched`);
      }
    }
    for (const path of before.keys()) {
      if (!path.startsWith("/data/")) assert.ok(after.has(path), `${path} disappeared`);
    }
    assert.equal(await Deno.readTextFile(`${sandbox}/outside/etc/passwd`), "sentinel");
    const buckets = [...(await snapshot(`${sandbox}/data/buckets`)).keys()].map((p) => p.split("/")[1]);
    for (const name of new Set(buckets)) {
      assert.match(name, /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, `bucket directory ${name}`);
    }
  } finally {
    await storage.close();
    await Deno.remove(sandbox, { recursive: true });
  }
});
