import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { SpillWriters } from "./spill.ts";

const MiB = 1024 * 1024;
const SIZE = 20.5 * MiB;

/** 20.5 MiB (more than the ring of shared batch slots holds) whose every byte depends on its position, written in uneven pieces. */
function pieces(): Uint8Array[] {
  const all = new Uint8Array(SIZE).map((_, i) => (i * 31 + (i >> 20)) & 0xff);
  const out: Uint8Array[] = [];
  for (let at = 0, n = 1; at < all.length; at += n, n = (n * 7 + 4093) % 300_000 + 1) {
    out.push(all.subarray(at, at + n));
  }
  return out;
}

const modes = [
  { name: "worker, batches in shared memory", options: {} },
  { name: "worker reading batches back from the file, as when it lags", options: { slots: 0 } },
  { name: "in-thread", options: { worker: false } },
];

for (const { name, options } of modes) {
  Deno.test(`spill (${name}): the temp file holds the bytes and the MD5 is theirs`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "deck-spill-" });
    const writers = new SpillWriters(dir, options);
    try {
      const expected = createHash("md5");
      const spill = await writers.create();
      for (const piece of pieces()) {
        spill.write(piece);
        expected.update(piece);
        piece.fill(0); // the caller may reuse its buffer at once
      }
      const { temp, md5Hex } = await spill.finish();
      assert.equal(md5Hex, expected.digest("hex"));
      const written = await Deno.readFile(temp.path);
      assert.equal(written.length, SIZE);
      assert.equal(createHash("md5").update(written).digest("hex"), md5Hex);

      // A worker that stops mid-upload costs speed, not the upload: what was written is hashed in-thread.
      const orphaned = await writers.create();
      const halves = [new Uint8Array(2 * MiB).fill(1), new Uint8Array(3 * MiB).fill(2)];
      orphaned.write(halves[0]);
      writers.close();
      orphaned.write(halves[1]);
      const rescued = await orphaned.finish();
      assert.equal(rescued.md5Hex, createHash("md5").update(halves[0]).update(halves[1]).digest("hex"));
      await rescued.temp.discard();

      const dropped = await writers.create();
      dropped.write(new Uint8Array(3 * MiB));
      await dropped.discard();
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [temp.path.split("/").pop()]);
    } finally {
      writers.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
