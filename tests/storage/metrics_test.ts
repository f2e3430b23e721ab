/**
 * The embedded storage's Prometheus endpoints, checked by Debian's own tools: promtool parses each
 * exposition, and a real Prometheus server scrapes the cluster endpoint with a bearer token while objects
 * are uploaded and requests made, and sees the values move.
 */
import assert from "node:assert/strict";
import { addCannedPolicy, addUser, setPolicy } from "../../server/lib/s3/admin/iam.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { getObject, putObject } from "../../server/lib/s3/ops/objects.ts";
import { prometheusBearerToken } from "../../server/lib/s3/prometheus_token.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { startPrometheus } from "../prometheus_process.ts";
import { rejectsWith, startStorage } from "../s3/fixture.ts";
import { eventually } from "../eventually.ts";

async function scrape(url: string, token: string | null, kind = "cluster"): Promise<Response> {
  return await fetch(`${url}/minio/v2/metrics/${kind}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

/** Value of the first sample of `name` whose line contains every `parts` text. */
function valueOf(text: string, name: string, ...parts: string[]): number | undefined {
  const line = text.split("\n").find((l) => l.startsWith(name + "{") && parts.every((p) => l.includes(p)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(" ") + 1));
}

/** promtool check metrics: exit 1 means the text does not parse; lint findings exit 3 with their lines. */
async function promtoolCheck(text: string): Promise<{ code: number; problems: string[] }> {
  const child = new Deno.Command("/usr/bin/promtool", {
    args: ["check", "metrics"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  const problems = (new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr)).split("\n")
    .filter(Boolean);
  return { code: out.code, problems };
}

Deno.test("storage metrics: MinIO's paths, names and authentication; promtool parses every endpoint", async (t) => {
  const fx = await startStorage();
  try {
    const token = await prometheusBearerToken(fx.storage.root);
    await t.step("no token, or a token signed with the wrong secret: 403 as MinIO answers", async () => {
      for (
        const bad of [
          null,
          await prometheusBearerToken({
            accessKey: fx.storage.root.accessKey,
            secretKey: "wrong-secret-123",
          }),
        ]
      ) {
        const res = await scrape(fx.storage.url, bad);
        assert.equal(res.status, 403);
        assert.equal((await res.json()).Code, "AccessDenied");
      }
    });

    await t.step(
      "each endpoint parses with promtool; the only findings are MinIO's own naming conventions",
      async () => {
        await makeBucket(fx.root, "metrics-one");
        await putObject(fx.root, "metrics-one", "a.txt", new Uint8Array(10));
        for (const kind of ["cluster", "node", "bucket"]) {
          const res = await scrape(fx.storage.url, token, kind);
          assert.equal(res.status, 200, kind);
          assert.match(res.headers.get("content-type") ?? "", /^text\/plain; version=0\.0\.4/);
          const text = await res.text();
          const { code, problems } = await promtoolCheck(text);
          assert.notEqual(code, 1, `${kind} does not parse: ${problems.join("\n")}`);
          const unexpected = problems.filter((p) =>
            !/should (not )?have "_total" suffix|should not have "le" label/.test(p)
          );
          assert.deepEqual(unexpected, [], `${kind}: unexpected promtool findings`);
        }
      },
    );

    await t.step("a user allowed admin:Prometheus may scrape; one without it may not", async () => {
      await addUser(fx.root, "scraper", "scraper-secret-1");
      await addCannedPolicy(
        fx.root,
        "prom-read",
        JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: ["admin:Prometheus"] }],
        }),
      );
      await setPolicy(fx.root, ["prom-read"], "scraper", false);
      await addUser(fx.root, "plain-user", "plain-secret-1");
      assert.equal(
        (await scrape(
          fx.storage.url,
          await prometheusBearerToken({ accessKey: "scraper", secretKey: "scraper-secret-1" }),
        )).status,
        200,
      );
      const refused = await scrape(
        fx.storage.url,
        await prometheusBearerToken({ accessKey: "plain-user", secretKey: "plain-secret-1" }),
      );
      assert.equal(refused.status, 403);
      await refused.body?.cancel();
    });

    await t.step(
      "uploads and requests move the values; errors, traffic and TTFB are counted per API",
      async () => {
        const before = await (await scrape(fx.storage.url, token)).text();
        const objectsBefore = valueOf(before, "minio_cluster_usage_object_total") ?? 0;
        const putsBefore = valueOf(before, "minio_s3_requests_total", 'api="putobject"') ?? 0;
        const receivedBefore = valueOf(before, "minio_s3_traffic_received_bytes") ?? 0;
        await putObject(fx.root, "metrics-one", "big.bin", new Uint8Array(2 * 1024 * 1024));
        await putObject(fx.root, "metrics-one", "small.txt", new Uint8Array(100));
        assert.equal(
          (await (await getObject(fx.root, "metrics-one", "big.bin")).arrayBuffer()).byteLength,
          2 * 1024 * 1024,
        );
        await rejectsWith(getObject(fx.root, "metrics-one", "missing"), "NoSuchKey");
        // A GET is counted when the server has handed over its last byte, which may be just after the client
        // has it: scrape until the sent bytes show it.
        const after = await eventually(
          "the 2 MiB sent to show in the metrics",
          async () => await (await scrape(fx.storage.url, token)).text(),
          { until: (text) => valueOf(text, "minio_s3_traffic_sent_bytes")! >= 2 * 1024 * 1024 },
        );
        assert.equal(valueOf(after, "minio_cluster_usage_object_total"), objectsBefore + 2);
        assert.equal(valueOf(after, "minio_s3_requests_total", 'api="putobject"'), putsBefore + 2);
        assert.ok(
          valueOf(after, "minio_s3_traffic_received_bytes")! >= receivedBefore + 2 * 1024 * 1024 + 100,
        );
        assert.ok(
          valueOf(after, "minio_s3_traffic_sent_bytes")! >= 2 * 1024 * 1024,
          "the GET's body was counted",
        );
        assert.ok(
          valueOf(after, "minio_s3_requests_errors_total", 'api="getobject"')! >= 1,
          "the NoSuchKey is an error",
        );
        assert.equal(
          valueOf(after, "minio_s3_requests_ttfb_seconds_distribution", 'api="putobject"', 'le="+Inf"'),
          putsBefore + 2,
        );
        assert.equal(
          valueOf(after, "minio_cluster_objects_size_distribution", 'range="BETWEEN_1_MB_AND_10_MB"'),
          1,
        );
        assert.equal(valueOf(after, "minio_cluster_bucket_total"), 1);
        const bucket = await (await scrape(fx.storage.url, token, "bucket")).text();
        assert.equal(
          valueOf(bucket, "minio_bucket_usage_object_total", 'bucket="metrics-one"'),
          objectsBefore + 2,
        );
        assert.ok(
          valueOf(bucket, "minio_bucket_requests_total", 'bucket="metrics-one"', 'api="putobject"')! >= 2,
        );
        const node = await (await scrape(fx.storage.url, token, "node")).text();
        assert.ok(
          valueOf(node, "minio_node_drive_total_bytes")! > 0,
          "the data directory's filesystem is reported",
        );
        assert.ok(valueOf(node, "minio_process_resident_memory_bytes")! > 0);
        if (Deno.build.os === "linux") {
          assert.ok(
            valueOf(node, "minio_node_file_descriptor_open_total")! > 0,
            "/proc gives the open files",
          );
        }
      },
    );

    await t.step("scrapes are not S3 traffic: they do not count themselves", async () => {
      const a = await (await scrape(fx.storage.url, token)).text();
      const b = await (await scrape(fx.storage.url, token)).text();
      const total = (text: string) =>
        text.split("\n").filter((l) => l.startsWith("minio_s3_requests_total{")).reduce(
          (s, l) => s + Number(l.split(" ").at(-1)),
          0,
        );
      assert.equal(total(a), total(b));
    });
  } finally {
    await fx.close();
  }
});

Deno.test("storage metrics: MINIO_PROMETHEUS_AUTH_TYPE=public needs no token", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-metrics-" });
  const storage = await startEmbeddedStorage({ dataDir, port: 0, prometheusAuthType: "public" });
  try {
    const res = await scrape(storage.url, null);
    assert.equal(res.status, 200);
    assert.match(await res.text(), /^minio_cluster_nodes_online_total\{server="[^"]+"\} 1$/m);
  } finally {
    await storage.close();
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("storage metrics: a real Prometheus scrapes the cluster endpoint and sees uploads", async () => {
  const fx = await startStorage();
  const prometheus = await startPrometheus({
    target: new URL(fx.storage.url).host,
    token: await prometheusBearerToken(fx.storage.root),
    jobName: "minio-job",
  });
  try {
    await prometheus.waitFor('up{job="minio-job"}', (v) => v === 1);
    await makeBucket(fx.root, "scraped");
    for (let i = 0; i < 3; i++) await putObject(fx.root, "scraped", `o${i}`, new Uint8Array(1500));
    assert.equal(
      await prometheus.waitFor('minio_cluster_usage_object_total{job="minio-job"}', (v) => v === 3),
      3,
    );
    assert.equal(
      await prometheus.waitFor(
        'sum(minio_s3_requests_total{job="minio-job",api="putobject"})',
        (v) => v >= 3,
      ),
      3,
    );
    const sizes = await prometheus.query(
      'minio_cluster_objects_size_distribution{job="minio-job",range="BETWEEN_1024B_AND_1_MB"}',
    );
    assert.equal(sizes[0]?.value[1], "3");
    const server = sizes[0].metric.server;
    assert.equal(server, new URL(fx.storage.url).host, "every sample carries the server label");
  } finally {
    await prometheus.stop();
    await fx.close();
  }
});
