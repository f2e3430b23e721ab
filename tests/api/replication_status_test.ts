/**
 * The console's replication status API (issue 15) over the wire to the embedded storage: none without a
 * replication configuration; replicated and pending counts once a rule sends a bucket's objects to a second
 * embedded storage; the multi-bucket wizard's setup replicates for real.
 */
import assert from "node:assert/strict";
import type { ReplicationStatusView } from "../../server/lib/contract/buckets.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket, putBucketVersioning, putObject } from "../../server/lib/s3/mod.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { signInAsRoot, startStack } from "../helpers.ts";
import { eventually } from "../eventually.ts";

Deno.test("API: replication status of a bucket, none until a rule replicates, then counted", async () => {
  const stack = await startStack();
  const remoteDir = await Deno.makeTempDir({ prefix: "deck-remote-" });
  const remoteRoot = { accessKey: "remote-root", secretKey: "remote-secret-key" };
  const remote = await startEmbeddedStorage({
    dataDir: remoteDir,
    hostname: "127.0.0.1",
    port: 0,
    rootUser: remoteRoot.accessKey,
    rootPassword: remoteRoot.secretKey,
  });
  try {
    const target = new S3Client({ endpoint: remote.url, credentials: remoteRoot });
    await makeBucket(target, "mirror");
    await putBucketVersioning(target, "mirror", { status: "Enabled" });
    await makeBucket(stack.admin, "docs");
    await putBucketVersioning(stack.admin, "docs", { status: "Enabled" });
    const api = await signInAsRoot(stack);
    assert.deepEqual(await api.json("GET", "/api/v1/buckets/docs/replication-status", undefined, 200), {
      status: null,
    });

    // Set up through the console's own replication API, as the wizard does.
    const result = await api.json<{ replicationState: { errorString: string }[] }>(
      "POST",
      "/api/v1/buckets-replication",
      {
        accessKey: remoteRoot.accessKey,
        secretKey: remoteRoot.secretKey,
        targetURL: `http://${new URL(remote.url).host}`,
        region: "",
        syncMode: "async",
        bandwidth: 0,
        healthCheckPeriod: 60,
        prefix: "",
        tags: "",
        replicateDeleteMarkers: true,
        replicateDeletes: true,
        replicateMetadata: true,
        bucketsRelation: [{ originBucket: "docs", destinationBucket: "mirror" }],
      },
      200,
    );
    assert.equal(result.replicationState[0].errorString, "");
    await putObject(stack.admin, "docs", "a.txt", "alpha");
    await putObject(stack.admin, "docs", "b.txt", "beta");
    const status = await eventually(
      "both objects replicated",
      async () =>
        (await api.json<{ status: ReplicationStatusView | null }>(
          "GET",
          "/api/v1/buckets/docs/replication-status",
          undefined,
          200,
        )).status,
      { until: (status) => status?.replicated === 2 },
    );
    assert.deepEqual(status, {
      replicated: 2,
      replicatedBytes: 9,
      pending: 0,
      failed: 0,
      lastError: "",
      lastErrorTime: "",
    });
  } finally {
    await remote.close();
    await stack.close();
    await Deno.remove(remoteDir, { recursive: true });
  }
});
