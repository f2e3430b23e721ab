import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Store } from "./store.ts";
import { readVersion } from "./read.ts";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const read = async (stream: ReadableStream<Uint8Array>) =>
  new TextDecoder().decode(await new Response(stream).arrayBuffer());

Deno.test("records kept in files by earlier versions of Deck (key directories and flat files) move into the records log at start", async () => {
  const root = await Deno.makeTempDir({ prefix: "deck-layout-" });
  try {
    const setup = await Store.open(root);
    await setup.createBucket("old");
    setup.close();
    const objects = `${root}/buckets/old/objects`;
    const version = {
      size: 5,
      etag: "5d41402abc4b2a76b9719d911017c592",
      lastModified: "2026-11-01T00:00:00.000Z",
      userMetadata: {},
    };
    const fanOf = (key: string) => `${objects}/${sha(key).slice(0, 2)}`;
    /** Writes a key as the oldest layout did: `<h2>/<hash>/meta.json` plus data files in the same directory. */
    const oldKey = async (key: string, record: object, files: Record<string, string>) => {
      const dir = `${fanOf(key)}/${sha(key)}`;
      await Deno.mkdir(dir, { recursive: true });
      await Deno.writeTextFile(`${dir}/meta.json`, JSON.stringify(record));
      for (const [name, text] of Object.entries(files)) await Deno.writeTextFile(`${dir}/${name}`, text);
      return dir;
    };
    const photoDir = await oldKey("photos/a.jpg", {
      key: "photos/a.jpg",
      versions: [{ ...version, versionId: "null", dataFile: "d1.data" }],
    }, {
      "d1.data": "hello",
      "d0.data": "left by an overwrite",
    });
    // A crash after the data file moved but before the record did: the next start finishes the move.
    const moved = "half/moved.bin";
    const movedDir = await oldKey(moved, {
      key: moved,
      versions: [{ ...version, versionId: "null", dataFile: "d2.data" }],
    }, {});
    await Deno.writeTextFile(`${fanOf(moved)}/${sha(moved)}.d2.data`, "moved");
    // The flat layout: `<hash>.json` with small objects' bytes inline (base64), two versions of one key.
    await Deno.mkdir(fanOf("notes.txt"), { recursive: true });
    await Deno.writeTextFile(
      `${fanOf("notes.txt")}/${sha("notes.txt")}.json`,
      JSON.stringify({
        key: "notes.txt",
        versions: [{ ...version, size: 2, versionId: "v2", inline: true }, {
          ...version,
          size: 3,
          versionId: "v1",
          inline: true,
        }],
        data: { v2: btoa("hi"), v1: btoa("old") },
      }),
    );

    for (let start = 0; start < 2; start++) {
      const store = await Store.open(root);
      try {
        const state = store.bucket("old");
        assert.deepEqual(state.keys, ["half/moved.bin", "notes.txt", "photos/a.jpg"]);
        const content = async (key: string, index = 0) =>
          await read(await readVersion(store, "old", key, state.objects.get(key)!.versions[index]));
        assert.equal(await content("photos/a.jpg"), "hello");
        assert.equal(await content("notes.txt"), "hi");
        assert.equal(await content("notes.txt", 1), "old");
        assert.equal(await content(moved), "moved");
        for (const dir of [photoDir, movedDir]) await assert.rejects(Deno.stat(dir), Deno.errors.NotFound);
        // Record files are gone once the log holds them; the overwritten version's data file, referenced by
        // no record, did not survive the move.
        const left = [fanOf("photos/a.jpg"), fanOf("notes.txt"), fanOf(moved)].flatMap((fan) =>
          [...Deno.readDirSync(fan)].map((e) => e.name)
        ).sort();
        assert.deepEqual(left, [`${sha(moved)}.d2.data`, `${sha("photos/a.jpg")}.d1.data`].sort());
      } finally {
        store.close();
      }
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
    await first.saveRecord(state, {
      key: "k",
      versions: [{
        versionId: "null",
        inline: true,
        size: 1,
        etag: "x",
        lastModified: "2026-11-01T00:00:00.000Z",
        userMetadata: {},
      }],
    }, {
      versionId: "null",
      data: new Uint8Array([65]),
    });
    first.close();
    const fan = `${root}/buckets/b/objects/${sha("k").slice(0, 2)}`;
    await Deno.mkdir(fan, { recursive: true });
    await Deno.writeTextFile(`${fan}/${crypto.randomUUID()}.tmp`, "half a file");
    await Deno.writeTextFile(
      `${fan}/${sha("k")}.${crypto.randomUUID()}.data`,
      "an upload that never committed",
    );
    const store = await Store.open(root);
    try {
      assert.deepEqual(store.bucket("b").keys, ["k"]);
      assert.deepEqual([...Deno.readDirSync(fan)], []);
      assert.equal(new TextDecoder().decode(await store.readInline("b", "k", "null")), "A");
    } finally {
      store.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
