/**
 * Page and API areas load with their first request (server/console/http/lazy_areas.ts, routes/mod.tsx,
 * server/console/app/app.ts): each area names the first path segments it answers, and a request is handed to
 * the areas its first segment names. A route outside the segments its area names would never be reached; a
 * path inside an area that the area has no route for must be treated like any unknown page or API path.
 */
import assert from "node:assert/strict";
import { firstSegment } from "../../server/console/http/lazy_areas.ts";
import type { OperatorDeps } from "../../server/console/k8s/connection.ts";
import { pageAreas } from "../../routes/mod.tsx";
import { apiAreas } from "../../server/console/app/app.ts";
import { operatorApiAreas } from "../../server/console/app/operator_mode.ts";
import { signInAsRoot, startStack } from "../helpers.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";

Deno.test("page and API areas: every route lies under its area's segments; requests reach it through the console", async (t) => {
  const stack = await startStack();
  try {
    await t.step(
      "each area, operator mode's included, builds routes only under the segments it names",
      async () => {
        const operatorDeps = { ...stack.deps, operator: {} as OperatorDeps };
        const pages = pageAreas(operatorDeps);
        assert.ok(pages.length >= 10, "the console's seven page areas and operator mode's three");
        const apis = [...apiAreas(stack.deps), ...operatorApiAreas(operatorDeps)];
        assert.ok(apis.length >= 18, "the console's fifteen API areas and operator mode's three");
        for (const area of [...pages, ...apis]) {
          const routes = (await area.load()).routes.filter((route) => route.method !== "ALL");
          assert.ok(routes.length > 0, `${area.segments} builds no route`);
          for (const route of routes) {
            const segment = firstSegment(route.path, "/");
            assert.ok(
              segment !== null && area.segments.includes(segment),
              `${route.path} is outside ${area.segments}`,
            );
          }
        }
      },
    );

    const client = await signInAsRoot(stack);
    await makeBucket(stack.admin, "areas");

    await t.step("first requests to an area, at once, all render its page", async () => {
      const pages = await Promise.all(
        Array.from({ length: 5 }, () => client.request("GET", "/buckets/areas/summary")),
      );
      for (const page of pages) {
        assert.equal(page.status, 200);
        assert.match(await page.text(), /areas/);
      }
    });

    await t.step("a path in an area with no page there goes where an unknown page goes", async () => {
      for (const path of ["/buckets/areas/summary/extra", "/dashboard/nothing", "/nowhere"]) {
        const res = await client.request("GET", path);
        assert.equal(res.status, 302, path);
        assert.equal(res.headers.get("location"), "/dashboard", path);
        await res.body?.cancel();
      }
    });

    await t.step("API areas that share a first segment each answer their own paths", async () => {
      const listed = await client.json<{ buckets: { name: string }[] }>(
        "GET",
        "/api/v1/buckets",
        undefined,
        200,
      );
      assert.ok(listed.buckets.some((bucket) => bucket.name === "areas"));
      const objects = await client.request("GET", "/api/v1/buckets/areas/objects");
      assert.equal(objects.status, 200, "the object area, asked after the bucket areas");
      await objects.body?.cancel();
    });

    await t.step("an API path in an area with no route there is the API's JSON 404", async () => {
      for (const path of ["/api/v1/buckets/areas/nothing/here", "/api/v1/jobs/x/y/z", "/api/v1/nowhere"]) {
        const res = await client.request("GET", path);
        assert.equal(res.status, 404, path);
        const body = await res.json();
        assert.equal(body.code, 404, path);
        assert.equal(typeof body.detailedMessage, "string", path);
      }
    });

    await t.step(
      "without a session an area's page sends the browser to sign in, its module unloaded or not",
      async () => {
        const res = await fetch(`${stack.consoleUrl}/license`, { redirect: "manual" });
        assert.equal(res.status, 302);
        assert.equal(res.headers.get("location"), "/login");
        await res.body?.cancel();
      },
    );
  } finally {
    await stack.close();
  }
});
