import assert from "node:assert/strict";
import { RecordLog } from "./record_log.ts";
import type { ObjectRecord, VersionRecord } from "../core/records.ts";

const text = (bytes: Uint8Array | undefined) => bytes && new TextDecoder().decode(bytes);
const bytes = (value: string) => new TextEncoder().encode(value);
const inlineVersion = (versionId: string, size: number): VersionRecord => ({
  versionId,
  inline: true,
  size,
  etag: "e",
  lastModified: "2026-11-01T00:00:00.000Z",
  userMetadata: {},
});

async function withDir(run: (dir: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "deck-log-" });
  try {
    await run(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("concurrent appends share syncs and all read back after reopening, with overwrites, removals and older versions' bytes", async () => {
  await withDir(async (dir) => {
    const { log } = await RecordLog.open(dir);
    await Promise.all(
      Array.from(
        { length: 200 },
        (_, i) =>
          log.append({ key: `k${i}`, versions: [inlineVersion("null", 4)] }, {
            versionId: "null",
            data: bytes(`v${String(i).padStart(3, "0")}`),
          }),
      ),
    );
    // A versioned key: the second version's entry carries only its own bytes; the first keeps its earlier ones.
    const first: ObjectRecord = { key: "doc", versions: [inlineVersion("a", 5)] };
    await log.append(first, { versionId: "a", data: bytes("first") });
    await log.append({ key: "doc", versions: [inlineVersion("b", 6), first.versions[0]] }, {
      versionId: "b",
      data: bytes("second"),
    });
    await log.append({ key: "k1", versions: [] });
    await log.append({ key: "k2", versions: [inlineVersion("null", 3)] }, {
      versionId: "null",
      data: bytes("new"),
    });
    log.close();

    const { log: reopened, records } = await RecordLog.open(dir);
    try {
      assert.equal(records.size, 200);
      assert.equal(records.has("k1"), false);
      assert.equal(text(reopened.readInline("k0", "null")), "v000");
      assert.equal(text(reopened.readInline("k199", "null")), "v199");
      assert.equal(text(reopened.readInline("k2", "null")), "new");
      assert.deepEqual(records.get("doc")!.versions.map((v) => v.versionId), ["b", "a"]);
      assert.equal(text(reopened.readInline("doc", "a")), "first");
      assert.equal(text(reopened.readInline("doc", "b")), "second");
      assert.equal(reopened.readInline("k1", "null"), undefined);
    } finally {
      reopened.close();
    }
  });
});

Deno.test("a torn last write (crash mid-append) is cut off and kept aside; what came before and what comes after survive", async () => {
  await withDir(async (dir) => {
    const { log } = await RecordLog.open(dir);
    await log.append({ key: "kept", versions: [inlineVersion("null", 4)] }, {
      versionId: "null",
      data: bytes("safe"),
    });
    log.close();
    const whole = await Deno.readFile(`${dir}/records.log`);
    // A second entry cut half-way, as a crash during its write leaves it.
    const { log: other } = await RecordLog.open(await Deno.makeTempDir({ dir }));
    await other.append({ key: "torn", versions: [inlineVersion("null", 4)] }, {
      versionId: "null",
      data: bytes("lost"),
    });
    other.close();
    const second = [...Deno.readDirSync(dir)].find((e) => e.isDirectory)!.name;
    const torn = await Deno.readFile(`${dir}/${second}/records.log`);
    await Deno.writeFile(
      `${dir}/records.log`,
      new Uint8Array([...whole, ...torn.subarray(0, torn.length - 3)]),
    );

    const { log: reopened, records } = await RecordLog.open(dir);
    assert.deepEqual([...records.keys()], ["kept"]);
    assert.equal((await Deno.stat(`${dir}/records.log`)).size, whole.length);
    const damaged = [...Deno.readDirSync(dir)].filter((e) => e.name.startsWith("records.log.damaged-"));
    assert.equal(damaged.length, 1);
    assert.deepEqual(
      await Deno.readFile(`${dir}/${damaged[0].name}`),
      torn.subarray(0, torn.length - 3),
      "the cut bytes are kept",
    );
    await reopened.append({ key: "after", versions: [inlineVersion("null", 5)] }, {
      versionId: "null",
      data: bytes("later"),
    });
    reopened.close();

    const { log: last, records: finalRecords } = await RecordLog.open(dir);
    try {
      assert.deepEqual([...finalRecords.keys()].sort(), ["after", "kept"]);
      assert.equal(text(last.readInline("kept", "null")), "safe");
      assert.equal(text(last.readInline("after", "null")), "later");
    } finally {
      last.close();
    }
  });
});

Deno.test("a log mostly of overwritten entries is rewritten to its live records, readable before and after reopening", async () => {
  await withDir(async (dir) => {
    const { log } = await RecordLog.open(dir);
    const big = new Uint8Array(100 * 1024);
    // 250 overwrites of 100 KiB pass the 16 MiB threshold with almost nothing live.
    for (let round = 0; round < 250; round++) {
      big.fill(round % 251);
      await log.append({ key: "hot", versions: [inlineVersion("null", big.length)] }, {
        versionId: "null",
        data: big,
      });
    }
    await log.append({ key: "cold", versions: [inlineVersion("null", 4)] }, {
      versionId: "null",
      data: bytes("cold"),
    });
    const size = (await Deno.stat(`${dir}/records.log`)).size;
    // 25 MiB were appended; the rewrite at 16 MiB left one entry, and 85 more followed it.
    assert.ok(size < 9 * 1024 * 1024, `log is ${size} bytes after compaction`);
    assert.equal(log.readInline("hot", "null")![0], 249 % 251);
    assert.equal(text(log.readInline("cold", "null")), "cold");
    log.close();
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["records.log"]);
    // A rewrite interrupted by a crash leaves its temp file; the next open removes it.
    await Deno.writeTextFile(`${dir}/records.log.${crypto.randomUUID()}.tmp`, "half a rewrite");

    const { log: reopened, records } = await RecordLog.open(dir);
    try {
      assert.deepEqual([...records.keys()].sort(), ["cold", "hot"]);
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["records.log"]);
      assert.equal(reopened.readInline("hot", "null")!.length, big.length);
      assert.equal(reopened.readInline("hot", "null")![big.length - 1], 249 % 251);
    } finally {
      reopened.close();
    }
  });
});

Deno.test("appends to a closed log are refused, not acknowledged", async () => {
  await withDir(async (dir) => {
    const { log } = await RecordLog.open(dir);
    log.close();
    await assert.rejects(
      log.append({ key: "k", versions: [inlineVersion("null", 1)] }, { versionId: "null", data: bytes("x") }),
      /closed/,
    );
  });
});

Deno.test("open logs hold no file descriptors, so thousands of buckets stay within the process's file limit", async () => {
  await withDir(async (dir) => {
    const openFds = () => [...Deno.readDirSync("/proc/self/fd")].length;
    const before = openFds();
    const logs: RecordLog[] = [];
    for (let i = 0; i < 300; i++) {
      await Deno.mkdir(`${dir}/b${i}`);
      const { log } = await RecordLog.open(`${dir}/b${i}`);
      await log.append({ key: "k", versions: [inlineVersion("null", 1)] }, {
        versionId: "null",
        data: bytes("x"),
      });
      logs.push(log);
    }
    assert.ok(openFds() - before < 10, `${openFds() - before} descriptors opened by 300 logs`);
    assert.equal(text(logs[299].readInline("k", "null")), "x");
    for (const log of logs) log.close();
  });
});
