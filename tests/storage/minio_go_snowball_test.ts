/**
 * MinIO's own Go client (Debian's minio-go 7.0.46) uploads objects as one archive with PutObjectsSnowball,
 * plain and S2-compressed, to the embedded storage, and lists them back with ListObjects. The program
 * (minio_go_snowball/main.go) is built offline against Debian's Go sources; the objects are then read back
 * with our own client and compared byte for byte.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { ensureSystemPrograms, GO, MINIO_GO } from "../../build/system_deps.ts";
import { startStorage } from "../s3/fixture.ts";

const SOURCE = `${import.meta.dirname}/minio_go_snowball`;

/** A stream of bytes no compressor shrinks (stored as S2's uncompressed chunks), larger than one S2 block. */
function noise(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = 0x9e3779b9;
  for (let i = 0; i < length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

const text = (s: string) => new TextEncoder().encode(s);

const OBJECTS: Record<string, Uint8Array> = {
  "dossier été/vidéo 😀 +%#?.txt": text("émoji 😀"),
  "Ελληνικά/αρχείο.txt": text("ελληνικά ".repeat(50)),
  "日本語/ファイル 名.txt": text("日本語"),
  "عربي/ملف.txt": text("عربي"),
  "plain/a b+c%20d#e?f.json": text('{"ok":true}'),
  "empty 😶.txt": new Uint8Array(0),
  // Long repeats: S2 copies and repeat codes, across more than one 1 MiB block.
  "big/repeated lines.log": text(
    Array.from({ length: 40_000 }, (_, i) => `line ${i % 997} of the log, entry ${i}\n`).join(""),
  ),
  "big/noise.bin": noise(1_300_000),
};

async function buildProgram(dir: string): Promise<string> {
  const missing = await ensureSystemPrograms([GO, MINIO_GO]);
  if (missing) throw new Error(missing);
  const out = `${dir}/snowball`;
  const result = await new Deno.Command(GO.path, {
    args: ["build", "-o", out, "."],
    cwd: SOURCE,
    // GOPATH mode over Debian's packaged sources: no module download, no network.
    env: {
      GO111MODULE: "off",
      GOPATH: `/usr/share/gocode:${dir}/gopath`,
      GOCACHE: `${dir}/cache`,
      GOFLAGS: "",
      HOME: dir,
    },
    stderr: "piped",
  }).output();
  if (!result.success) throw new Error(`go build failed: ${new TextDecoder().decode(result.stderr)}`);
  return out;
}

Deno.test("auto-extract: MinIO's Go client uploads objects with PutObjectsSnowball, plain and S2-compressed", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deck-minio-go-" });
  const f = await startStorage();
  try {
    const program = await buildProgram(dir);
    const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""));
    for (const compress of [false, true]) {
      const bucket = compress ? "snowball-s2" : "snowball-plain";
      await s3.makeBucket(f.root, bucket);
      const prefix = "into box+% 📦";
      const child = new Deno.Command(program, {
        env: {
          S3_ENDPOINT: f.storage.url,
          S3_ACCESS_KEY: f.storage.root.accessKey,
          S3_SECRET_KEY: f.storage.root.secretKey,
        },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
      const writer = child.stdin.getWriter();
      const objects = Object.fromEntries(Object.entries(OBJECTS).map(([k, v]) => [k, base64(v)]));
      await writer.write(text(JSON.stringify({ bucket, prefix, compress, objects })));
      await writer.close();
      const result = await child.output();
      const stderr = new TextDecoder().decode(result.stderr);
      assert.ok(result.success, `minio-go (compress: ${compress}) failed: ${stderr}`);
      const { listed } = JSON.parse(new TextDecoder().decode(result.stdout)) as {
        listed: { key: string; size: number }[];
      };
      const expected = Object.entries(OBJECTS).map(([key, bytes]) => ({
        key: `${prefix}/${key}`,
        size: bytes.length,
      }));
      const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
      assert.deepEqual(
        listed.sort(byKey),
        expected.sort(byKey),
        `listed by minio-go (compress: ${compress})`,
      );
      for (const [key, bytes] of Object.entries(OBJECTS)) {
        const got = new Uint8Array(
          await (await s3.getObject(f.root, bucket, `${prefix}/${key}`)).arrayBuffer(),
        );
        assert.ok(got.length === bytes.length && got.every((b, i) => b === bytes[i]), `bytes of ${key}`);
      }
    }
  } finally {
    await f.close();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
