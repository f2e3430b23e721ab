/**
 * Dashboard API (api-index §3): the widget list and widget data from Deck's own history with zero setup,
 * the same queries answered by a real Prometheus with the same shape, the step and range rules, and a
 * Prometheus that cannot be reached.
 */
import assert from "node:assert/strict";
import type { AdminInfoWithWidgets, WidgetDetails } from "../../server/lib/contract/dashboard.ts";
import { loadConfig } from "../../server/console/config/config.ts";
import { silentLogger } from "../../server/lib/http/log.ts";
import { createMetricsService } from "../../server/console/metrics/mod.ts";
import { WIDGETS } from "../../server/console/metrics/widgets.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { putObject } from "../../server/lib/s3/ops/objects.ts";
import { prometheusBearerToken } from "../../server/lib/s3/prometheus_token.ts";
import { createUser, runScenarios, signIn, signInAsRoot, startStack } from "../helpers.ts";
import { startPrometheus } from "../prometheus_process.ts";
import { freePort } from "../storage_process.ts";
import { eventually } from "../eventually.ts";

const lastValue = (details: WidgetDetails, target = 0) =>
  Number(details.targets[target].result[0]?.values.at(-1)?.[1]);

Deno.test("dashboard API: widgets from the on-box history with zero setup", async (t) => {
  const stack = await startStack({ metricsIntervalMs: 1000 });
  try {
    const root = await signInAsRoot(stack);
    await t.step("admin info lists the 28 widgets and says where their numbers come from", async () => {
      const info = await root.json<AdminInfoWithWidgets>("GET", "/api/v1/admin/info", undefined, 200);
      assert.equal(info.widgets?.length, 28);
      assert.deepEqual(info.widgets?.find((w) => w.id === 66), {
        id: 66,
        title: "Number of Buckets",
        type: "stat",
        options: { reduceOptions: { calcs: ["lastNotNull"] } },
      });
      assert.equal(info.metricsSource?.kind, "history");
      assert.match(info.metricsSource!.description, /sampled every 1 s/);
      assert.equal(info.servers.length, 1, "the basic fields stay");
    });

    await t.step("panels have data right after start-up and follow uploads and requests", async () => {
      await makeBucket(stack.admin, "dash-one");
      await makeBucket(stack.admin, "dash-two");
      for (let i = 0; i < 5; i++) await putObject(stack.admin, "dash-one", `o${i}`, new Uint8Array(2000));
      const buckets = await eventually(
        "the bucket count of 2 on the widget",
        () => root.json<WidgetDetails>("GET", "/api/v1/admin/info/widgets/66/", undefined, 200),
        { until: (d) => lastValue(d) === 2 },
      );
      assert.equal(lastValue(buckets), 2, "the newest point follows the storage within a second");
      assert.deepEqual(buckets.options.reduceOptions.calcs, ["lastNotNull"]);
      const sizes = await root.json<WidgetDetails>("GET", "/api/v1/admin/info/widgets/52", undefined, 200);
      const between = sizes.targets[0].result.find((r) => r.metric.range === "BETWEEN_1024B_AND_1_MB");
      assert.equal(between?.values.at(-1)?.[1], "5");
      // A rate needs two samples of a series: the first one after the first PUT creates it, later PUTs raise it.
      let n = 5;
      const putRate = (d: WidgetDetails) =>
        Number(d.targets[0].result.find((r) => r.metric.api === "putobject")?.values.at(-1)?.[1] ?? 0);
      const rate = await eventually("a put rate above zero", async () => {
        await putObject(stack.admin, "dash-one", `o${n++}`, new Uint8Array(10));
        return await root.json<WidgetDetails>("GET", "/api/v1/admin/info/widgets/60", undefined, 200);
      }, { until: (d) => putRate(d) > 0 });
      const puts = rate.targets[0].result.find((r) => r.metric.api === "putobject");
      assert.ok(
        puts,
        `a request-rate series per API: ${JSON.stringify(rate.targets[0].result.map((r) => r.metric))}`,
      );
      assert.deepEqual(Object.keys(puts.metric).sort(), ["api", "server"]);
      assert.ok(Number(puts.values.at(-1)![1]) > 0);
      assert.equal(rate.targets[0].legendFormat, "{{api}}");
    });

    await t.step(
      "the step rule: start and end in epoch seconds, step in seconds, one point per step",
      async () => {
        const end = Math.floor(Date.now() / 1000);
        const start = end - 600;
        // The browser's rule: the range in whole minutes (10) as the step.
        const memory = await root.json<WidgetDetails>(
          "GET",
          `/api/v1/admin/info/widgets/76/?start=${start}&end=${end}&step=10`,
          undefined,
          200,
        );
        const times = memory.targets[0].result[0].values.map(([time]) => time);
        assert.ok(times.every((time, i) => time === times[0] + i * 10), "points are one step apart");
        assert.equal(times.at(-1), end, "the last point is at the end of the range");
        assert.ok(times[0] >= start);
      },
    );

    await t.step(
      "a session allowed server info but not admin:Prometheus gets the basic fields without widgets",
      async () => {
        await createUser(stack, "viewer", "viewer-secret-1", [{
          name: "server-info",
          document: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["admin:ServerInfo"] }] },
        }]);
        const viewer = await signIn(stack, "viewer", "viewer-secret-1");
        const info = await viewer.json<AdminInfoWithWidgets>("GET", "/api/v1/admin/info", undefined, 200);
        assert.equal(info.widgets, undefined);
        assert.equal(info.buckets, 2);
        const page = await (await viewer.request("GET", "/dashboard")).text();
        assert.match(page, /data-testid="buckets-count"/, "the basic view");
        assert.doesNotMatch(page, /data-island="MetricsDashboard"/);
        await viewer.json("GET", "/api/v1/admin/info/widgets/66/", undefined, 403);
      },
    );

    await runScenarios(t, stack, [
      { name: "no session", as: "none", method: "GET", path: "/api/v1/admin/info/widgets/1/", status: 401 },
      {
        name: "a user without admin:Prometheus",
        as: "narrow",
        method: "GET",
        path: "/api/v1/admin/info/widgets/1/",
        status: 403,
      },
      {
        name: "unknown widget",
        as: "root",
        method: "GET",
        path: "/api/v1/admin/info/widgets/12345/",
        status: 404,
      },
      {
        name: "id not a number",
        as: "root",
        method: "GET",
        path: "/api/v1/admin/info/widgets/abc/",
        status: 400,
      },
      {
        name: "end before start",
        as: "root",
        method: "GET",
        path: "/api/v1/admin/info/widgets/1/?start=2000&end=1000&step=1",
        status: 400,
      },
      {
        name: "step 0",
        as: "root",
        method: "GET",
        path: "/api/v1/admin/info/widgets/1/?step=0",
        status: 400,
      },
      {
        name: "start not a number",
        as: "root",
        method: "GET",
        path: "/api/v1/admin/info/widgets/1/?start=yesterday",
        status: 400,
      },
      {
        name: "too many points",
        as: "root",
        method: "GET",
        path: "/api/v1/admin/info/widgets/1/?start=0&end=100000000&step=1",
        status: 400,
      },
    ]);
  } finally {
    await stack.close();
  }
});

Deno.test("dashboard API: a real Prometheus and the on-box history answer every widget with the same shape", async () => {
  const stack = await startStack({ metricsIntervalMs: 1000 });
  const target = new URL(stack.storage.url).host;
  const prometheus = await startPrometheus({
    target,
    token: await prometheusBearerToken(stack.storage.root),
    jobName: "minio-job",
  });
  const config = loadConfig({ CONSOLE_PROMETHEUS_URL: prometheus.url });
  const fromPrometheus = createMetricsService({
    config,
    storageUrl: stack.storage.url,
    storageToken: () => Promise.resolve(null),
    fetch,
    log: silentLogger,
    historyFile: null,
  });
  try {
    await prometheus.waitFor('up{job="minio-job"}', (v) => v === 1);
    await makeBucket(stack.admin, "shape-bucket");
    await putObject(stack.admin, "shape-bucket", "x", new Uint8Array(10));
    // A rate needs the series sampled before more traffic arrives: once both sides have it, PUT again.
    await prometheus.waitFor('minio_s3_requests_total{job="minio-job",api="putobject"}');
    await eventually(
      "the on-box history to have a request rate",
      () => stack.deps.metrics.widgetDetails(60, {}),
      { until: (d) => d.targets[0].result.length > 0 },
    );
    await putObject(stack.admin, "shape-bucket", "y", new Uint8Array(10));
    await prometheus.waitFor(
      'sum(rate(minio_s3_requests_total{job="minio-job",api="putobject"}[240s]))',
      (v) => v > 0,
    );
    // Pick an end at which both sides hold two samples of every series the rates read.
    const range = await eventually("an end at which both sources hold two samples", async () => {
      const end = Math.floor(Date.now() / 1000);
      const candidate = { start: end - 120, end, step: 5 };
      const [a, b] = await Promise.all([
        fromPrometheus.widgetDetails(60, candidate),
        stack.deps.metrics.widgetDetails(60, candidate),
      ]);
      return { candidate, ready: a.targets[0].result.length === 2 && b.targets[0].result.length === 2 };
    }, { until: (r) => r.ready }).then((r) => r.candidate);
    for (const widget of WIDGETS) {
      const [a, b] = await Promise.all([
        fromPrometheus.widgetDetails(widget.id, range),
        stack.deps.metrics.widgetDetails(widget.id, range),
      ]);
      assert.equal(a.targets.length, b.targets.length, widget.title);
      a.targets.forEach((ta, i) => {
        const tb = b.targets[i];
        assert.equal(ta.legendFormat, tb.legendFormat);
        assert.equal(ta.resultType, "matrix");
        assert.equal(tb.resultType, "matrix");
        const shapeOf = (result: typeof ta.result) =>
          result.map((r) => Object.keys(r.metric).sort().join(",")).sort();
        assert.deepEqual(
          shapeOf(tb.result),
          shapeOf(ta.result),
          `${widget.title} target ${i}: same series label sets`,
        );
        for (const series of [...ta.result, ...tb.result]) {
          for (const [time, value] of series.values) {
            assert.ok(
              typeof time === "number" && typeof value === "string",
              `${widget.title}: [seconds, "value"] pairs`,
            );
          }
        }
      });
      if (widget.id === 66) assert.equal(lastValue(a), lastValue(b), "the same number of buckets");
    }
  } finally {
    await fromPrometheus.close();
    await prometheus.stop();
    await stack.close();
  }
});

Deno.test("dashboard API: an unreachable Prometheus fails the panel quickly with the reason, never the page", async () => {
  const port = await freePort(); // nothing listens there
  const stack = await startStack({ env: { CONSOLE_PROMETHEUS_URL: `http://127.0.0.1:${port}` } });
  try {
    const root = await signInAsRoot(stack);
    const info = await root.json<AdminInfoWithWidgets>("GET", "/api/v1/admin/info", undefined, 200);
    assert.equal(info.metricsSource?.kind, "prometheus");
    assert.equal(info.widgets?.length, 28, "the widget list does not depend on Prometheus answering");
    const res = await root.request("GET", "/api/v1/admin/info/widgets/60/");
    assert.equal(res.status, 502);
    const body = await res.json();
    assert.equal(body.message, "Prometheus URL is unreachable");
    assert.match(body.detailedMessage, new RegExp(`127\\.0\\.0\\.1:${port}/-/healthy`));
    const page = await root.request("GET", "/dashboard");
    assert.equal(page.status, 200);
    await page.body?.cancel();
  } finally {
    await stack.close();
  }
});
