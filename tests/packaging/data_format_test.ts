/**
 * Data that outlives a release: the data directory written by the previous release (tests/fixtures/,
 * written by tests/packaging/make_format_fixture.ts) opens with every object version, the user and its
 * policy, the replication rule with its waiting version, and the queued bucket event; a new directory gets
 * the format file on its first start, an old one without it gets it too; and a directory of a newer format
 * stops Deck's start with one line and a non-zero exit, untouched.
 */
import assert from "node:assert/strict";
import { build } from "../../build/build.ts";
import { getUserInfo, infoCannedPolicy } from "../../server/lib/s3/admin/iam.ts";
import { listRemoteTargets } from "../../server/lib/s3/admin/buckets.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { S3Error } from "../../server/lib/s3/errors.ts";
import { getObject, listObjectsV2, listObjectVersions, putObject } from "../../server/lib/s3/ops/objects.ts";
import { getBucketReplication } from "../../server/lib/s3/ops/replication.ts";
import { EMBEDDED_VERSION } from "../../server/storage/admin/info.ts";
import { DATA_FORMAT, DataFormatError } from "../../server/storage/data_format.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { eventually } from "../eventually.ts";
import { webhookReceiver } from "../notify_services.ts";
import { freePort } from "../storage_process.ts";
import { copyPath, ROOT, run } from "./helpers.ts";
import type { FixtureExpectations } from "./make_format_fixture.ts";

/** The fixture of the format before this one's (while this is the first format, this format's own). */
const PREVIOUS = `${ROOT}tests/fixtures/data-format-${Math.max(1, DATA_FORMAT - 1)}/`;
const expected: FixtureExpectations = JSON.parse(await Deno.readTextFile(`${PREVIOUS}expected.json`));

/**
 * A copy of the fixture in a temporary directory. queue_dir is an absolute path (as in MinIO), so the moved
 * queue is named in the copy's config, as an administrator moving a data directory does; its webhook now
 * answers at `endpoint`.
 */
async function copyFixture(endpoint: string): Promise<{ tmp: string; dataDir: string }> {
  const tmp = await Deno.makeTempDir({ prefix: "deck-format-" });
  await copyPath(`${PREVIOUS}data`, `${tmp}/data`);
  await copyPath(`${PREVIOUS}queue`, `${tmp}/queue`);
  const configFile = `${tmp}/data/.deck/config.json`;
  const config = JSON.parse(await Deno.readTextFile(configFile));
  const [id] = expected.queuedEvent.target.split(":");
  assert.equal(config.notify_webhook[id].queue_dir, expected.queuedEvent.queueDir);
  config.notify_webhook[id].queue_dir = `${tmp}/queue`;
  config.notify_webhook[id].endpoint = endpoint;
  await Deno.writeTextFile(configFile, JSON.stringify(config));
  return { tmp, dataDir: `${tmp}/data` };
}

async function sha256(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)).toHex();
}

const readFormat = async (dataDir: string) =>
  JSON.parse(await Deno.readTextFile(`${dataDir}/.deck/format.json`));

Deno.test({
  name: "the previous release's data directory opens with everything in it",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const hook = webhookReceiver();
  const { tmp, dataDir } = await copyFixture(hook.url);
  const storage = await startEmbeddedStorage({
    dataDir,
    port: 0,
    rootUser: expected.root.accessKey,
    rootPassword: expected.root.secretKey,
  });
  const s3 = new S3Client({ endpoint: storage.url, credentials: expected.root });
  try {
    await t.step("every version, delete marker and byte", async () => {
      const buckets = [...new Set(expected.versions.map((v) => v.bucket))];
      const found = [];
      for (const bucket of buckets) {
        for (const v of (await listObjectVersions(s3, bucket)).versions) {
          const body = v.isDeleteMarker ? new Uint8Array() : new Uint8Array(
            await (await getObject(s3, bucket, v.key, { versionId: v.versionId })).arrayBuffer(),
          );
          found.push({
            bucket,
            key: v.key,
            versionId: v.versionId,
            isDeleteMarker: v.isDeleteMarker,
            isLatest: v.isLatest,
            etag: v.etag,
            sha256: await sha256(body),
          });
        }
      }
      assert.deepEqual(found, expected.versions);
      assert.ok(
        expected.versions.some((v) => /[🎉写]/u.test(v.key)),
        "the fixture holds names in several scripts",
      );
    });

    await t.step("the user signs in with its password, and its policy still decides", async () => {
      const info = await getUserInfo(s3, expected.user.accessKey);
      assert.equal(info.status, "enabled");
      assert.equal(info.policyName, expected.policy.name);
      assert.deepEqual(
        JSON.parse(await infoCannedPolicy(s3, expected.policy.name)),
        expected.policy.document,
      );
      const user = new S3Client({ endpoint: storage.url, credentials: expected.user });
      const bucket = expected.versions[0].bucket;
      assert.ok((await listObjectsV2(user, bucket)).objects.length > 0);
      await assert.rejects(
        () => putObject(user, bucket, "not allowed.txt", "x"),
        (error) => error instanceof S3Error && error.code === "AccessDenied",
      );
    });

    await t.step("the replication rule, its target, and the version still waiting to be sent", async () => {
      const { bucket, arn, ruleId, pendingKey } = expected.replication;
      const rules = (await getBucketReplication(s3, bucket)).rules;
      assert.deepEqual(rules.map((r) => [r.id, r.destinationBucket]), [[ruleId, arn]]);
      assert.deepEqual((await listRemoteTargets(s3, bucket)).map((target) => target.arn), [arn]);
      const waiting = await s3.empty({ method: "HEAD", bucket, key: pendingKey });
      assert.match(waiting.headers.get("x-amz-replication-status") ?? "", /^(PENDING|FAILED)$/);
    });

    await t.step("the queued bucket event reaches its webhook", async () => {
      const received = await eventually("the queued event", () => hook.received, {
        until: (r) => r.length >= 1,
      });
      const { bucket, key } = expected.queuedEvent;
      assert.deepEqual(received.map((r) => r.body.Key), [`${bucket}/${key}`]);
    });
  } finally {
    await storage.close();
    await hook.close();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a new data directory gets the format file, and so does one from before the file existed", async () => {
  const fresh = await Deno.makeTempDir({ prefix: "deck-format-new-" });
  const hook = webhookReceiver();
  const old = await copyFixture(hook.url);
  try {
    await Deno.remove(`${old.dataDir}/.deck/format.json`);
    for (const dataDir of [fresh, old.dataDir]) {
      const storage = await startEmbeddedStorage({
        dataDir,
        port: 0,
        rootUser: expected.root.accessKey,
        rootPassword: expected.root.secretKey,
      });
      await storage.close();
      assert.equal((await readFormat(dataDir)).format, DATA_FORMAT, dataDir);
    }
  } finally {
    await hook.close();
    await Deno.remove(fresh, { recursive: true });
    await Deno.remove(old.tmp, { recursive: true });
  }
});

/** Every file under `dir` with its content hash, to see that nothing was written. */
async function snapshot(dir: string, into = new Map<string, string>()): Promise<Map<string, string>> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) await snapshot(path, into);
    else into.set(path, await sha256(await Deno.readFile(path)));
  }
  return into;
}

Deno.test("Deck refuses a data directory of a newer format with one line, a non-zero exit, and no write", async () => {
  await build({ ifStale: true }); // main.ts imports the built assets
  const hook = webhookReceiver();
  const { tmp, dataDir } = await copyFixture(hook.url);
  try {
    const newer = { format: DATA_FORMAT + 1, writtenBy: "DECK-EMBEDDED.2099-01-01" };
    await Deno.writeTextFile(`${dataDir}/.deck/format.json`, JSON.stringify(newer));
    const before = await snapshot(tmp);
    const deck = await run(Deno.execPath(), ["run", "-A", "--config", "deno.runtime.json", "main.ts"], {
      cwd: ROOT,
      env: {
        NO_COLOR: "1",
        CONSOLE_HOSTNAME: "127.0.0.1",
        CONSOLE_PORT: String(await freePort()),
        CONSOLE_STORAGE_ADDRESS: `127.0.0.1:${await freePort()}`,
        CONSOLE_LOG_SEARCH_ADDRESS: `127.0.0.1:${await freePort()}`,
        CONSOLE_DATA_DIR: dataDir,
        MINIO_ROOT_USER: expected.root.accessKey,
        MINIO_ROOT_PASSWORD: expected.root.secretKey,
      },
      // A Deck that opened the directory would serve until stopped.
      signal: AbortSignal.timeout(60_000),
    });
    assert.equal(deck.code, 1, deck.stdout + deck.stderr);
    assert.equal(deck.stdout, "");
    const lines = deck.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 1, deck.stderr);
    assert.equal(
      lines[0],
      `Deck cannot start: the embedded storage did not start: the data directory ${await Deno.realPath(
        dataDir,
      )} ` +
        `has data format ${
          DATA_FORMAT + 1
        } (written by DECK-EMBEDDED.2099-01-01); this Deck (${EMBEDDED_VERSION}) ` +
        `reads format ${DATA_FORMAT}: start the release that wrote it or a newer one`,
    );
    assert.deepEqual(await snapshot(tmp), before, "the refused directory was written to");
  } finally {
    await hook.close();
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("a format file that is not Deck's stops the start instead of being guessed at", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-format-bad-" });
  try {
    await Deno.mkdir(`${dataDir}/.deck`);
    await Deno.writeTextFile(`${dataDir}/.deck/format.json`, '{"format": "two"}');
    await assert.rejects(
      () =>
        startEmbeddedStorage({ dataDir, port: 0, rootUser: "formatroot", rootPassword: "format-secret-1" }),
      (error) =>
        error instanceof DataFormatError && /is not a data format file Deck wrote/.test(error.message),
    );
    assert.equal(await Deno.readTextFile(`${dataDir}/.deck/format.json`), '{"format": "two"}');
    assert.deepEqual(
      [...Deno.readDirSync(dataDir)].map((e) => e.name),
      [".deck"],
      "nothing else was created",
    );
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});
