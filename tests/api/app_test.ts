import assert from "node:assert/strict";
import { createApp, createFetchHandler } from "../../server/console/app.ts";
import { loadConfig } from "../../server/console/config.ts";
import { silentLogger } from "../../server/lib/http/log.ts";
import { createPageRenderer } from "../../server/console/render/page.tsx";
import { LoginThrottle } from "../../server/console/session/login_throttle.ts";
import { createSessionKey } from "../../server/console/session/token.ts";
import { manifest } from "../../static/gen/manifest.ts";
import { createMetricsService } from "../../server/console/metrics/mod.ts";
import { LicenseStore } from "../../server/console/services/license.ts";

const sessionKey = await createSessionKey(null);

function makeHandler(subpath = "/") {
  const config = loadConfig({ CONSOLE_SUBPATH: subpath });
  const render = createPageRenderer({ subpath: config.subpath });
  const app = createApp({
    config,
    log: silentLogger,
    render,
    storage: { url: "http://127.0.0.1:1", region: "" },
    fetch: globalThis.fetch,
    now: Date.now,
    sessionKey,
    loginThrottle: new LoginThrottle(),
    // Never started: these tests need no storage behind the console.
    metrics: createMetricsService({
      config,
      storageUrl: "http://127.0.0.1:1",
      storageToken: () => Promise.resolve(null),
      fetch: globalThis.fetch,
      log: silentLogger,
      historyFile: null,
    }),
    license: new LicenseStore({
      configured: "",
      publicKeyFile: "",
      file: "/nonexistent/subnet-license",
      now: Date.now,
    }),
  });
  return createFetchHandler(app, config.subpath);
}

Deno.test("liveness endpoint answers without a session", async () => {
  const res = await makeHandler()(new Request("http://deck/healthz"));
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), { status: "ok" });
});

Deno.test("built assets are served with long cache headers, gzip when accepted", async () => {
  const handler = makeHandler();
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
  const res = await makeHandler()(new Request("http://deck/healthz"));
  const csp = res.headers.get("content-security-policy") ?? "";
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.equal(res.headers.get("x-content-type-options"), "nosniff");
  await res.body?.cancel();
});

Deno.test("unknown API path without a session is 401 (the API surface stays hidden); unknown page goes to sign-in", async () => {
  const handler = makeHandler();
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
  const handler = makeHandler("/console");
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
    const res = await makeHandler(subpath)(new Request(`http://deck${path}`));
    assert.equal(res.status, 302, path);
    assert.equal(res.headers.get("location"), location);
    await res.body?.cancel();
  }
});
