import assert from "node:assert/strict";
import { safeEntryName, type ZipEntry, zipStream } from "./zip.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

async function* entries(list: { name: string; data: Uint8Array }[]): AsyncGenerator<ZipEntry> {
  for (const item of list) {
    yield {
      name: item.name,
      modified: new Date("2024-05-06T07:08:10Z"),
      open: () =>
        Promise.resolve({
          size: item.data.length,
          body: new Blob([item.data as Uint8Array<ArrayBuffer>]).stream(),
        }),
    };
  }
}

/** Unzips with Info-ZIP's unzip into a temp dir and returns the files found. */
async function unzipAll(zip: Uint8Array): Promise<Record<string, string>> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/a.zip`, zip);
    const test = await new Deno.Command("unzip", {
      args: ["-t", "-q", `${dir}/a.zip`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(test.code, 0, new TextDecoder().decode(test.stdout) + new TextDecoder().decode(test.stderr));
    const out = await new Deno.Command("unzip", {
      args: ["-q", `${dir}/a.zip`, "-d", `${dir}/x`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const files: Record<string, string> = {};
    const walk = async (path: string, rel: string) => {
      for await (const e of Deno.readDir(path)) {
        if (e.isDirectory) await walk(`${path}/${e.name}`, `${rel}${e.name}/`);
        else files[rel + e.name] = await Deno.readTextFile(`${path}/${e.name}`);
      }
    };
    await walk(`${dir}/x`, "");
    return files;
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("zip: unzip reads back every entry, unicode names included, and an empty archive", async () => {
  const zip = new Uint8Array(
    await new Response(zipStream(entries([
      { name: "a.txt", data: bytes("first") },
      { name: "dir/ü b %+#?.txt", data: bytes("second") },
      { name: "empty.txt", data: new Uint8Array(0) },
    ]))).arrayBuffer(),
  );
  assert.deepEqual(await unzipAll(zip), { "a.txt": "first", "dir/ü b %+#?.txt": "second", "empty.txt": "" });
  const empty = new Uint8Array(await new Response(zipStream(entries([]))).arrayBuffer());
  assert.equal(empty.length, 22, "just the end record");
});

Deno.test("zip: more than 65,535 entries get ZIP64 end records that unzip accepts", async () => {
  const many = Array.from({ length: 70_000 }, (_, i) => ({ name: `f/${i}`, data: bytes(String(i)) }));
  const zip = new Uint8Array(await new Response(zipStream(entries(many))).arrayBuffer());
  const file = await Deno.makeTempFile({ suffix: ".zip" });
  try {
    await Deno.writeFile(file, zip);
    const out = await new Deno.Command("unzip", { args: ["-Z1", file], stdout: "piped", stderr: "piped" })
      .output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    const names = new TextDecoder().decode(out.stdout).trim().split("\n");
    assert.equal(names.length, 70_000);
    assert.equal(names[69_999], "f/69999");
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("zip: ZIP64 sizes and offsets (threshold lowered to exercise them) read back exactly", async () => {
  const data = [{ name: "big-1", data: bytes("x".repeat(5000)) }, {
    name: "big-2",
    data: bytes("y".repeat(3000)),
  }, { name: "small", data: bytes("z") }];
  const zip = new Uint8Array(
    await new Response(zipStream(entries(data), { zip64Above: 2000 })).arrayBuffer(),
  );
  assert.deepEqual(await unzipAll(zip), { "big-1": "x".repeat(5000), "big-2": "y".repeat(3000), small: "z" });
});

Deno.test("zip: names cannot climb out of the extraction folder", () => {
  assert.equal(safeEntryName("../../etc/passwd"), "etc/passwd");
  assert.equal(safeEntryName("/abs/./x"), "abs/x");
  assert.equal(safeEntryName("folder/"), "folder/");
  assert.equal(safeEntryName(".."), "");
});

Deno.test("zip: drive letters, backslashes and Windows' dot-space names become safe relative paths", () => {
  assert.equal(safeEntryName("C:/Windows/win.ini"), "Windows/win.ini");
  assert.equal(safeEntryName("C:\\Windows\\System32\\x.dll"), "Windows/System32/x.dll");
  assert.equal(safeEntryName("c:relative.txt"), "relative.txt");
  assert.equal(safeEntryName("\\\\server\\share\\f.txt"), "server/share/f.txt");
  assert.equal(safeEntryName("a\\..\\..\\b.txt"), "a/b.txt");
  assert.equal(safeEntryName("docs/.. /. ./x.txt"), "docs/x.txt");
  assert.equal(safeEntryName("keep/D:/inside"), "keep/inside");
  assert.equal(safeEntryName("time 10:30/ünï ✓.txt"), "time 10:30/ünï ✓.txt", "a colon elsewhere stays");
  assert.equal(safeEntryName("dir\\"), "dir/");
});

Deno.test("zip: names that end up the same are kept apart, so no entry hides another", async () => {
  const zip = new Uint8Array(
    await new Response(zipStream(entries([
      { name: "C:/x/report.txt", data: bytes("one") },
      { name: "x\\report.txt", data: bytes("two") },
      { name: "x/report.txt", data: bytes("three") },
      { name: "x/.env", data: bytes("four") },
      { name: "x\\.env", data: bytes("five") },
    ]))).arrayBuffer(),
  );
  assert.deepEqual(await unzipAll(zip), {
    "x/report.txt": "one",
    "x/report (2).txt": "two",
    "x/report (3).txt": "three",
    "x/.env": "four",
    "x/.env (2)": "five",
  });
});
