/**
 * An encoded slash never turns a bucket into an object: every console route that takes a bucket in its path
 * refuses `b%2Fvictim.txt` with 400 (never 5xx), the object b/victim.txt survives, and the storage server
 * splits bucket from key before decoding, as S3 does.
 */
import assert from "node:assert/strict";
import { BUCKET_PATH_PREFIXES } from "../../server/console/api/bucket_paths.ts";
import { getObject, putObject } from "../../server/lib/s3/mod.ts";
import { consoleRoutes, signInAsRoot, startStack } from "../helpers.ts";

Deno.test("console: every route with a bucket in its path refuses an encoded slash, and nothing is touched", async () => {
  const stack = await startStack();
  try {
    await stack.admin.send({ method: "PUT", bucket: "bck" });
    await putObject(stack.admin, "bck", "victim.txt", "still here");
    const client = await signInAsRoot(stack);
    const routes = (await consoleRoutes(stack.deps)).filter((r) =>
      r.method !== "ALL" && /\/:[A-Za-z_]+/.test(r.path) && /bucket/.test(r.path)
    );
    assert.ok(routes.length >= 20, "routes are enumerated from the app");
    for (const route of routes) {
      const prefix = BUCKET_PATH_PREFIXES.find((p) => route.path.startsWith(p));
      assert.ok(prefix, `${route.method} ${route.path} takes a bucket but is outside BUCKET_PATH_PREFIXES`);
      // The first parameter after the prefix is the bucket; the others get harmless values.
      const rest = route.path.slice(prefix.length).split("/");
      rest[0] = "bck%2Fvictim.txt";
      const path = prefix + rest.map((part) => part.replace(/^:[A-Za-z_]+(\{[^}]*\})?$/, "x")).join("/");
      const body = route.method === "GET" || route.method === "DELETE" ? undefined : {};
      const res = await client.request(route.method, path, body);
      const text = await res.text();
      assert.equal(res.status, 400, `${route.method} ${path}: ${res.status} ${text.slice(0, 120)}`);
      if (path.startsWith("/api/")) assert.equal(JSON.parse(text).message, "invalid bucket name");
    }
    assert.equal(await (await getObject(stack.admin, "bck", "victim.txt")).text(), "still here");
    // A malformed escape is refused the same way.
    const malformed = await client.request("GET", "/api/v1/buckets/a%zz");
    assert.equal(malformed.status, 400);
    await malformed.body?.cancel();
  } finally {
    await stack.close();
  }
});

Deno.test("storage: the encoded path is split before decoding; bad components and malformed escapes get S3's 400s", async () => {
  const stack = await startStack();
  try {
    await stack.admin.send({ method: "PUT", bucket: "lim-bkt" });
    const { port } = new URL(stack.storage.url);
    const errors: string[] = [];
    const originalError = console.error;
    console.error = (...args: unknown[]) => errors.push(args.map(String).join(" "));
    try {
      for (
        const [method, path, code] of [
          ["PUT", "/lim-bkt%2Fsub/x", "InvalidBucketName"],
          ["DELETE", "/lim-bkt%2Fsub", "InvalidBucketName"],
          ["GET", "/a%zz", "InvalidURI"],
          ["PUT", "/lim-bkt/..", "XMinioInvalidResourceName"],
          ["GET", "/lim-bkt/a/./b", "XMinioInvalidResourceName"],
        ]
      ) {
        const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
        await conn.write(
          new TextEncoder().encode(
            `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
          ),
        );
        const answer = await new Response(conn.readable).text();
        assert.match(answer, /^HTTP\/1\.1 400 /, `${method} ${path}: ${answer.split("\r\n")[0]}`);
        assert.match(answer, new RegExp(`<Code>${code}</Code>`), `${method} ${path}`);
      }
    } finally {
      console.error = originalError;
    }
    assert.deepEqual(errors, [], "no stack traces in the log");
    const list = await stack.admin.send({ method: "GET", bucket: "lim-bkt", query: { "list-type": "2" } });
    assert.doesNotMatch(await list.text(), /<Key>/, "nothing was stored under sub/x");
  } finally {
    await stack.close();
  }
});
