import assert from "node:assert/strict";
import { mkdirDurable } from "./durable.ts";

Deno.test("mkdirDurable creates every missing parent, and concurrent calls for one path all succeed", async () => {
  const root = await Deno.makeTempDir({ prefix: "deck-durable-" });
  try {
    await Promise.all([
      mkdirDurable(`${root}/a/b/c`),
      mkdirDurable(`${root}/a/b/c`),
      mkdirDurable(`${root}/a/b/d`),
    ]);
    assert.ok((await Deno.stat(`${root}/a/b/c`)).isDirectory);
    assert.ok((await Deno.stat(`${root}/a/b/d`)).isDirectory);
    await mkdirDurable(`${root}/a/b/c`); // existing: nothing to do
    await Deno.writeTextFile(`${root}/a/file`, "x");
    await assert.rejects(mkdirDurable(`${root}/a/file/e`));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
