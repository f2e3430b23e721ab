import assert from "node:assert/strict";
import { createApp, createFetchHandler } from "../../server/console/app/app.ts";
import { loadConfig } from "../../server/console/config/config.ts";
import { silentLogger } from "../../server/lib/http/log.ts";
import { consoleDeps } from "../../server/start/deck.ts";
import { manifest } from "../../static/gen/assets.ts";

async function makeHandler(subpath = "/") {
  const config = loadConfig({ CONSOLE_SUBPATH: subpath, CONSOLE_DATA_DIR: "/nonexistent" });
  // Nothing listens at the storage's address and the metrics sampler is never started: these tests need no
  // storage behind the console.
  const deps = await consoleDeps(config, {
    log: silentLogger,
    storage: { url: "http://127.0.0.1:1", region: "" },
    metricsToken: () => Promise.resolve(null),
  });
  return createFetchHandler(createApp(deps), config.subpath);
}

Deno.test("liveness endpoint answers without a session", async () => {
  const res = await (await makeHandler())(new Request("http://deck/healthz"));
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: "ok" });
});

Deno.test("built assets are served with long cache headers, gzip when accepted", async () => {
  const handler = await makeHandler();
  const plain = await handler(new Request(`http://deck/static/${manifest.css}`));
  assert.equal(plain.status, 200);
  assert.match(plain.headers.get("cache-control") ?? "", /immutable/);
  assert.match(plain.headers.get("content-type") ?? "", /text\/css/);
  const css = await plain.text();
  assert.match(css, /font-family:Lato/);
  const zipped = await handler(
    new Request(`http://deck/static/${manifest.css}`, { headers: { "accept-encoding": "gzip, br" } }),
  );
  assert.equal(zipped.headers.get("content-encoding"), "gzip");
  await zipped.body?.cancel();
  const missing = await handler(new Request("http://deck/static/nope.js"));
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
});

Deno.test("every response carries the security headers", async () => {
  const res = await (await makeHandler())(new Request("http://deck/healthz"));
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  await res.body?.cancel();
});

Deno.test("unknown API path without a session is 401 (the API surface stays hidden); unknown page goes to sign-in", async () => {
  const handler = await makeHandler();
  const api = await handler(new Request("http://deck/api/v1/nope"));
  assert.equal(api.status, 401);
  const body = await api.json();
  assert.equal(body.code, 401);
  assert.equal(typeof body.message, "string");
  assert.equal(typeof body.detailedMessage, "string");
  const page = await handler(new Request("http://deck/static-nope/x"));
  assert.equal(page.status, 302);
  assert.equal(page.headers.get("location"), "/login");
  const oversized = await handler(
    new Request("http://deck/api/v1/login", { method: "POST", body: "x".repeat(2 * 1024 * 1024) }),
  );
  assert.equal(oversized.status, 413);
  assert.equal((await oversized.json()).code, 413);
});

Deno.test("under a subpath, routes answer only below it", async () => {
  const handler = await makeHandler("/console");
  const inside = await handler(new Request("http://deck/console/healthz"));
  assert.equal(inside.status, 200);
  await inside.body?.cancel();
  const outside = await handler(new Request("http://deck/healthz"));
  assert.equal(outside.status, 404);
  await outside.body?.cancel();
  const bare = await handler(new Request("http://deck/console"));
  assert.equal(bare.status, 308);
  assert.equal(bare.headers.get("location"), "http://deck/console/");
});

Deno.test("list pages answer with a trailing slash too: /users/ and /buckets/ redirect to the list", async () => {
  for (
    const [subpath, path, location] of [["/", "/users/", "/users"], ["/", "/buckets/?x=1", "/buckets?x=1"], [
      "/console",
      "/console/users/",
      "/console/users",
    ]]
  ) {
    const res = await (await makeHandler(subpath))(new Request(`http://deck${path}`));
    assert.equal(res.status, 302, path);
    assert.equal(res.headers.get("location"), location);
    await res.body?.cancel();
  }
});
