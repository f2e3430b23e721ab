/**
 * GET /api/v1/logs/search against the built-in log search fed by the embedded storage's audit webhook, and
 * against a log search reached over HTTP as an external CONSOLE_LOG_QUERY_URL would be.
 */
import assert from "node:assert/strict";
import { startLogSearch } from "../../server/logsearch/server.ts";
import * as s3 from "../../server/lib/s3/mod.ts";
import { runScenarios, signInAsRoot, startStack } from "../helpers.ts";
import { eventually } from "../eventually.ts";

Deno.test("logs search: the session's log-search feature, the auth matrix, and an upload found in the audit log", async (t) => {
  const stack = await startStack({ logSearch: true });
  try {
    await s3.makeBucket(stack.admin, "audit-me");
    await s3.putObject(stack.admin, "audit-me", "docs/report & summary.txt", "hello");
    const root = await signInAsRoot(stack);
    const session = await root.json<{ features: string[] }>("GET", "/api/v1/session", undefined, 200);
    assert.deepEqual(session.features, ["log-search"]);
    const search = (query: string) =>
      root.json<{ results: Record<string, unknown>[] }>(
        "GET",
        `/api/v1/logs/search?${query}`,
        undefined,
        200,
      );
    const fp = (key: string, value: string) => `fp=${encodeURIComponent(`${key}:${value}`)}`;
    // Delivery is asynchronous: wait for the record, as a user would press Get Information again.
    const found = await eventually(
      "the upload's audit record",
      async () =>
        (await search(
          `q=reqinfo&${fp("bucket", "audit-me")}&${
            fp("api_name", "PutObject")
          }&pageSize=100&pageNo=0&order=timeDesc`,
        )).results,
      { until: (results) => results.length > 0 },
    );
    assert.equal(found.length, 1);
    assert.equal(
      found[0].object,
      "docs/report & summary.txt",
      "a value with & and spaces reaches the service intact",
    );
    assert.equal(found[0].response_status, "OK");
    assert.equal(found[0].request_content_length, 5);
    assert.equal(found[0].access_key, stack.storage.root.accessKey);
    const wildcard = await search(`${fp("object", "docs/report*")}&pageSize=100`);
    assert.equal(wildcard.results.length, 1);
    const injected = await search(`${fp("bucket", "audit-me' OR '1'='1")}&pageSize=100`);
    assert.deepEqual(injected.results, []);

    await runScenarios(t, stack, [
      { name: "no session", as: "none", method: "GET", path: "/api/v1/logs/search", status: 401 },
      {
        name: "unknown filter key",
        as: "root",
        method: "GET",
        path: "/api/v1/logs/search?fp=owner:me",
        status: 400,
      },
      {
        name: "a range of status codes (the service matches the status text)",
        as: "root",
        method: "GET",
        path: `/api/v1/logs/search?${fp("response_status", "4*")}`,
        status: 400,
      },
      {
        name: "bad order",
        as: "root",
        method: "GET",
        path: "/api/v1/logs/search?order=sideways",
        status: 400,
      },
      {
        name: "bad time",
        as: "root",
        method: "GET",
        path: "/api/v1/logs/search?timeStart=yesterday",
        status: 400,
      },
      {
        name: "page size out of range",
        as: "root",
        method: "GET",
        path: "/api/v1/logs/search?pageSize=5",
        status: 400,
      },
      {
        // The original let any signed-in user read everyone's requests; Deck asks admin:OBDInfo, as MinIO's
        // console does (tests/api/live_access_test.ts).
        name: "a bucket-limited user may not search",
        as: "narrow",
        method: "GET",
        path: "/api/v1/logs/search?pageSize=10&order=timeAsc",
        status: 403,
      },
    ]);
  } finally {
    await stack.close();
  }
});

Deno.test("logs search: an external service over HTTP, and one that cannot be reached", async () => {
  const stack = await startStack();
  const dir = await Deno.makeTempDir({ prefix: "deck-ext-logsearch-" });
  const external = await startLogSearch({
    databaseUrl: "",
    sqlitePath: `${dir}/a.sqlite`,
    hostname: "127.0.0.1",
    port: 0,
    auditToken: "in",
    queryToken: "out",
    retentionMs: 0,
  });
  try {
    const root = await signInAsRoot(stack);
    assert.deepEqual(
      (await root.json<{ features: string[] }>("GET", "/api/v1/session", undefined, 200)).features,
      [],
      "no log search, no feature",
    );
    const entry = {
      version: "1",
      time: "2026-05-01T10:00:00.5Z",
      api: {
        name: "GetObject",
        bucket: "b",
        object: "a+b c",
        status: "OK",
        statusCode: 200,
        timeToResponse: "10ns",
      },
      requestID: "R1",
    };
    assert.equal(
      (await fetch(`${external.url}/api/ingest?token=in`, { method: "POST", body: JSON.stringify(entry) }))
        .status,
      200,
    );
    stack.deps.logSearch = { url: external.url, token: "out", fetch: globalThis.fetch };
    const body = await root.json<{ results: { object: string }[] }>(
      "GET",
      `/api/v1/logs/search?fp=${encodeURIComponent("object:a+b c")}&pageSize=10`,
      undefined,
      200,
    );
    assert.deepEqual(body.results.map((r) => r.object), ["a+b c"]);
    stack.deps.logSearch = { url: external.url, token: "wrong", fetch: globalThis.fetch };
    const refused = await root.json<{ message: string }>("GET", "/api/v1/logs/search", undefined, 403);
    assert.equal(refused.message, "error retrieving logs: Forbidden");
    stack.deps.logSearch = { url: "http://127.0.0.1:9", token: "x", fetch: globalThis.fetch };
    const down = await root.json<{ message: string }>("GET", "/api/v1/logs/search", undefined, 500);
    assert.equal(down.message, "Log Search API not available.");
  } finally {
    stack.deps.logSearch = null;
    await external.close();
    await stack.close();
    await Deno.remove(dir, { recursive: true });
  }
});
