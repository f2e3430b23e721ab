/**
 * Trace records below the request (MinIO's `storage` and `os` types) from the embedded storage, over real
 * HTTP with Deck's own admin client: what a PUT and a GET produce, that an S3-only trace builds none, and
 * that errors-only and the threshold apply to them.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import type { TraceInfo, TraceQuery } from "../../server/lib/s3/admin/live.ts";
import { startStorage, type StorageFixture } from "./fixture.ts";
import { eventually, within } from "../eventually.ts";

const NONE: TraceQuery = {
  s3: false,
  internal: false,
  storage: false,
  os: false,
  errorsOnly: false,
  threshold: "0s",
};

/**
 * Opens a trace, waits until the server subscribed to `hub`, runs `act`, and collects records until `last`
 * accepts one (returned last); closes the trace and waits for the subscription to end.
 */
async function traceDuring(
  f: StorageFixture,
  query: TraceQuery,
  hub: { subscriberCount: number },
  act: () => Promise<unknown>,
  last: (t: TraceInfo) => boolean,
): Promise<TraceInfo[]> {
  const stop = new AbortController();
  const records: TraceInfo[] = [];
  const got = () => `the expected record; got ${records.map((r) => r.funcname).join(", ")}`;
  const iterator = s3.serviceTrace(f.root, query, stop.signal);
  const first = iterator.next();
  first.catch(() => {});
  const collect = async () => {
    await eventually("the server to subscribe", () => hub.subscriberCount > 0);
    await act();
    for (let next = await first; !next.done; next = await iterator.next()) {
      records.push(next.value);
      if (last(next.value)) return records;
    }
    throw new Error(`the stream ended before ${got()}`);
  };
  try {
    // A record that never comes fails the test instead of hanging it.
    return await within(got, collect(), 60_000);
  } finally {
    // A generator's return() waits for a pending next(): give up on it after a while rather than hang.
    await within("the trace to close", iterator.return(undefined), 2000).catch(() => {});
    stop.abort();
    await eventually("the trace subscription to end after the client left", () => hub.subscriberCount === 0);
  }
}

const read = async (res: Response) => new Uint8Array(await res.arrayBuffer());
const BIG = 200 * 1024;

Deno.test("storage trace: a PUT and a GET as MinIO's storage calls, with path bucket/key, bytes and no http", async () => {
  const f = await startStorage();
  const calls = f.storage.streams.storageCalls;
  try {
    await s3.makeBucket(f.root, "traced");
    const records = await traceDuring(f, { ...NONE, storage: true }, calls, async () => {
      await s3.putObject(f.root, "traced", "dir/a b.txt", "hello");
      assert.equal(
        new TextDecoder().decode(await read(await s3.getObject(f.root, "traced", "dir/a b.txt"))),
        "hello",
      );
      await s3.putObject(f.root, "traced", "big.bin", new Uint8Array(BIG).fill(1));
      assert.equal((await read(await s3.getObject(f.root, "traced", "big.bin"))).length, BIG);
      await s3.listObjectsV2(f.root, "traced", { prefix: "dir/" });
    }, (t) => t.funcname === "storage.WalkDir");
    const find = (funcname: string, path: string) => {
      const found = records.find((t) => t.funcname === funcname && t.path === path);
      assert.ok(found, `${funcname} ${path} in ${records.map((t) => `${t.funcname} ${t.path}`).join(", ")}`);
      return found;
    };
    const small = find("storage.WriteMetadata", "traced/dir/a b.txt");
    assert.equal(small.bytes, 5, "an inline version is written with its record");
    assert.equal(find("storage.ReadVersion", "traced/dir/a b.txt").bytes, 5);
    assert.equal(
      find("storage.RenameData", "traced/big.bin").bytes,
      BIG,
      "a version with a data file is renamed into place",
    );
    assert.equal(find("storage.ReadFileStream", "traced/big.bin").bytes, BIG);
    find("storage.WalkDir", "traced/dir/");
    for (const t of records) {
      assert.equal(t.type, 2, `${t.funcname}: the storage type bit`);
      assert.match(t.funcname, /^storage\./);
      assert.equal(t.http, undefined, "storage calls carry no http part");
      assert.equal(t.error, "");
      assert.ok(t.dur >= 0 && Number.isInteger(t.dur));
      assert.match(t.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      assert.equal(t.nodename, new URL(f.storage.url).host);
    }
    assert.ok(!calls.active, "with the trace gone, storage calls publish nothing");
  } finally {
    await f.close();
  }
});

Deno.test("os trace: the file-system calls of a durable write, records log appends included", async () => {
  const f = await startStorage();
  const osCalls = f.storage.streams.osCalls;
  const dataDir = await Deno.realPath(f.dataDir);
  try {
    await s3.makeBucket(f.root, "traced");
    const records = await traceDuring(f, { ...NONE, os: true }, osCalls, async () => {
      await s3.putObject(f.root, "traced", "small.txt", "hello");
      await s3.putObject(f.root, "traced", "big.bin", new Uint8Array(BIG).fill(2));
      await read(await s3.getObject(f.root, "traced", "big.bin"));
    }, (t) => t.funcname === "os.OpenFileR" && t.path.endsWith(".data"));
    const log = `${dataDir}/buckets/traced/records.log`;
    const names = records.map((t) => `${t.funcname} ${t.path}`);
    for (const name of ["os.OpenFileW", "os.Write", "os.Fdatasync"]) {
      assert.ok(names.includes(`${name} ${log}`), `${name} on the records log in ${names.join(", ")}`);
    }
    const append = records.find((t) => t.funcname === "os.Write" && t.path === log)!;
    assert.ok((append.bytes ?? 0) > 5, "an append writes the entry with the inline bytes");
    const rename = records.find((t) => t.funcname === "os.Rename");
    assert.ok(rename, `a rename in ${names.join(", ")}`);
    const [from, to] = rename.path.split(" -> ");
    assert.ok(
      from.startsWith(`${dataDir}/.deck/tmp/`) && to.startsWith(`${dataDir}/buckets/traced/objects/`),
      rename.path,
    );
    assert.ok(
      records.some((t) => t.funcname === "os.OpenFileW" && t.path === from),
      "the temp file was created",
    );
    assert.equal(
      records.filter((t) => t.funcname === "os.Write" && t.path === from).reduce(
        (n, t) => n + (t.bytes ?? 0),
        0,
      ),
      BIG,
      "its writes add up to the body",
    );
    assert.ok(
      records.some((t) => t.funcname === "os.Sync" && t.path === from),
      "and synced before the rename",
    );
    for (const t of records) {
      assert.equal(t.type, 1, `${t.funcname}: the os type bit`);
      assert.match(t.funcname, /^os\./);
      assert.ok(t.path.startsWith(dataDir), `${t.path} is in the data directory`);
      assert.equal(t.http, undefined);
    }
  } finally {
    await f.close();
  }
});

Deno.test("storage and os traces: an S3-only trace builds none; errors-only and the threshold apply", async () => {
  const f = await startStorage();
  const { requests, storageCalls, osCalls } = f.storage.streams;
  try {
    await s3.makeBucket(f.root, "traced");
    const s3Only = await traceDuring(f, { ...NONE, s3: true }, requests, async () => {
      assert.ok(!storageCalls.active && !osCalls.active, "no one listens for storage or os calls");
      await s3.putObject(f.root, "traced", "a.txt", "hello");
      await read(await s3.getObject(f.root, "traced", "a.txt"));
    }, (t) => t.funcname === "s3.GetObject");
    assert.deepEqual(
      s3Only.map((t) => t.type),
      s3Only.map(() => 4),
      `only S3 records: ${s3Only.map((t) => t.funcname).join(", ")}`,
    );

    // Errors only: the PUT's successful call comes first and is left out; the refused bucket deletion shows.
    const [failed] = await traceDuring(
      f,
      { ...NONE, storage: true, errorsOnly: true },
      storageCalls,
      async () => {
        await s3.putObject(f.root, "traced", "b.txt", "hello");
        await s3.deleteBucket(f.root, "traced").then(
          () => assert.fail("a bucket with objects is not deleted"),
          () => {},
        );
      },
      () => true,
    );
    assert.equal(failed.funcname, "storage.DeleteVol");
    assert.equal(failed.path, "traced");
    assert.equal(failed.error, "BucketNotEmpty");

    // Threshold 1s: the quick read is left out; a deletion held by its key's lock past the second shows.
    const [slow] = await traceDuring(
      f,
      { ...NONE, storage: true, threshold: "1s" },
      storageCalls,
      async () => {
        await read(await s3.getObject(f.root, "traced", "a.txt"));
        let release!: () => void;
        const held = new Promise<void>((resolve) => (release = resolve));
        let locked!: () => void;
        const holding = new Promise<void>((resolve) => (locked = resolve));
        const locks = f.storage.store.locks;
        const lock = locks.run("traced/a.txt", () => (locked(), held));
        await holding;
        // The deletion's timing starts before it queues on the lock: once it has queued, holding the lock
        // 1.5 s more makes it slower than the threshold however long the request took to arrive.
        const run = locks.run.bind(locks);
        let queuedAt = 0;
        locks.run = (
          key,
          work,
        ) => ((key === "traced/a.txt" && !queuedAt && (queuedAt = performance.now())), run(key, work));
        const deletion = s3.deleteObject(f.root, "traced", "a.txt");
        await eventually("the deletion to queue on the key's lock", () => queuedAt > 0, {
          timeoutMs: 60_000,
        });
        await eventually(
          "the deletion to wait past the threshold",
          () => performance.now() - queuedAt > 1500,
        );
        locks.run = run;
        release();
        await lock;
        await deletion;
      },
      () => true,
    );
    assert.equal(
      slow.funcname,
      "storage.DeleteVersion",
      "the first record past the threshold is the slow deletion",
    );
    assert.equal(slow.path, "traced/a.txt");
    assert.ok(slow.dur >= 1e9, `${slow.dur} ns`);
  } finally {
    await f.close();
  }
});
