import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readVersion } from "./objects.ts";
import { Store } from "./store.ts";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const read = async (stream: ReadableStream<Uint8Array>) => new TextDecoder().decode(await new Response(stream).arrayBuffer());

Deno.test("data kept in key directories by an earlier Deck moves to the flat layout at start, also after a crash mid-way", async () => {
  const root = await Deno.makeTempDir({ prefix: "deck-layout-" });
  try {
    (await Store.open(root)).close();
    const setup = await Store.open(root);
    await setup.createBucket("old");
    setup.close();
    const objects = `${root}/buckets/old/objects`;
    const version = { size: 5, etag: "5d41402abc4b2a76b9719d911017c592", lastModified: "2026-11-01T00:00:00.000Z", userMetadata: {} };
    /** Writes a key as the earlier layout did: `<h2>/<hash>/meta.json` plus data files in the same directory. */
    const oldKey = async (key: string, record: object, files: Record<string, string>) => {
      const dir = `${objects}/${sha(key).slice(0, 2)}/${sha(key)}`;
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(`${dir}/meta.json`, JSON.stringify(record));
      for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${dir}/${name}`, text);
      return dir;
    };
    const photoDir = await oldKey("photos/a.jpg", { key: "photos/a.jpg", versions: [{ ...version, versionId: "null", dataFile: "d1.data" }] }, {
      "d1.data": "hello",
      "d0.data": "left by an overwrite",
    });
    const notesDir = await oldKey("notes.txt", { key: "notes.txt", versions: [{ ...version, size: 2, versionId: "null", inline: true }], data: { null: btoa("hi") } }, {});
    // A crash after the data file moved but before the record did: the next start finishes the move.
    const moved = "half/moved.bin";
    const movedDir = await oldKey(moved, { key: moved, versions: [{ ...version, versionId: "null", dataFile: "d2.data" }] }, {});
    await Deno.writeTextFile(`${objects}/${sha(moved).slice(0, 2)}/${sha(moved)}.d2.data`, "moved");

    const store = await Store.open(root);
    try {
      const state = store.bucket("old");
      assert.deepEqual(state.keys, ["half/moved.bin", "notes.txt", "photos/a.jpg"]);
      const content = async (key: string) => await read(await readVersion(store, "old", key, state.objects.get(key)!.versions[0]));
      assert.equal(await content("photos/a.jpg"), "hello");
      assert.equal(await content("notes.txt"), "hi");
      assert.equal(await content(moved), "moved");
      for (const dir of [photoDir, notesDir, movedDir]) await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
      const fan = `${objects}/${sha("photos/a.jpg").slice(0, 2)}`;
      // The overwritten version's data file is not referenced by any record, so it did not survive the move.
      assert.deepEqual([...Deno.readDirSync(fan)].map((e) => e.name).filter((n) => n.startsWith(sha("photos/a.jpg"))).sort(), [
        `${sha("photos/a.jpg")}.d1.data`,
        `${sha("photos/a.jpg")}.json`,
      ]);
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("at start, temp files and data files no record references (left by a crash) are removed; records stay", async () => {
  const root = await Deno.makeTempDir({ prefix: "deck-layout-" });
  try {
    const first = await Store.open(root);
    const state = await first.createBucket("b");
    await first.saveRecord(state, { key: "k", versions: [{ versionId: "null", inline: true, size: 1, etag: "x", lastModified: "2026-11-01T00:00:00.000Z", userMetadata: {} }] }, {
      versionId: "null",
      data: new Uint8Array([65]),
    });
    first.close();
    const fan = `${root}/buckets/b/objects/${sha("k").slice(0, 2)}`;
    await Deno.writeTextFile(`${fan}/${crypto.randomUUID()}.tmp`, "half a record");
    await Deno.writeTextFile(`${fan}/${sha("k")}.${crypto.randomUUID()}.data`, "an upload that never committed");
    const store = await Store.open(root);
    try {
      assert.deepEqual(store.bucket("b").keys, ["k"]);
      assert.deepEqual([...Deno.readDirSync(fan)].map((e) => e.name), [`${sha("k")}.json`]);
      assert.equal(new TextDecoder().decode(await store.readInline("b", "k", "null")), "A");
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
