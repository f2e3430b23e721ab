import assert from "node:assert/strict";
import { createApp, createFetchHandler } from "../../server/console/app/app.ts";
import { loadConfig } from "../../server/console/config/config.ts";
import { silentLogger } from "../../server/lib/http/log.ts";
import { consoleDeps } from "../../server/start/deck.ts";
import { manifest } from "../../static/gen/manifest.ts";

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

Deno.test("under a subpath, a proxy may keep the prefix or strip it: the same pages, links with the prefix", async () => {
  const handler = await makeHandler("/console");
  for (const [style, prefix] of [["kept", "/console"], ["stripped", ""]]) {
    const health = await handler(new Request(`http://deck${prefix}/healthz`));
    assert.equal(health.status, 200, style);
    await health.body?.cancel();
    // No storage behind this console: the sign-in page says it cannot be reached, a page all the same.
    const login = await handler(new Request(`http://deck${prefix}/login`));
    assert.equal(login.status, 503, style);
    const html = await login.text();
    assert.match(
      html,
      new RegExp(`href="/console/static/${manifest.css}"`),
      `${style}: assets carry the prefix`,
    );
    const css = await handler(new Request(`http://deck${prefix}/static/${manifest.css}`));
    assert.equal(css.status, 200, `${style}: assets are served`);
    await css.body?.cancel();
    const home = await handler(new Request(`http://deck${prefix}/`));
    assert.equal(home.status, 302, style);
    assert.equal(home.headers.get("location"), "/console/login", `${style}: redirects carry the prefix`);
    await home.body?.cancel();
  }
  // A relative Location: behind a proxy the Host Deck sees may not be the one the browser used.
  const bare = await handler(new Request("http://127.0.0.1:9090/console?x=1"));
  assert.equal(bare.status, 308);
  assert.equal(bare.headers.get("location"), "/console/?x=1");
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
