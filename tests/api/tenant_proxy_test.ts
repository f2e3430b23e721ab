/**
 * The tenant proxy over HTTP: RBAC, sign-in to the tenant's real console with its root credentials, the
 * per-tenant cookie, upstream status passed through, streamed bodies both ways, rewritten redirects and
 * links, framing headers, WebSocket relay, and that the operator's own cookie never goes upstream (an echo
 * service stands in for the console for the header checks).
 */
import assert from "node:assert/strict";
import { RESOURCES } from "../../build/k8s_standin/resources.ts";
import { seedTenant } from "../../build/k8s_standin/seed.ts";
import { ConsoleClient } from "../helpers.ts";
import { type OperatorStack, signInOperator, startOperatorStack } from "../operator_helpers.ts";

const SERVICES = RESOURCES.find((r) => r.kind === "Service")!;
const upgrade = {
  upgrade: "websocket",
  connection: "upgrade",
  "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
  "sec-websocket-version": "13",
};
const LITE = "/api/proxy/tenant-lite/storage-lite";

/** A console stand-in that answers what it received, signs in anyone, echoes WebSockets and streams bytes. */
function startEcho() {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    if (req.headers.get("upgrade") === "websocket") {
      const cookie = req.headers.get("cookie");
      const { socket, response } = Deno.upgradeWebSocket(req);
      socket.onmessage = (e) => socket.send(`echo ${e.data} with ${cookie}`);
      return response;
    }
    if (url.pathname === "/api/v1/login") {
      return new Response("{}", {
        status: 201,
        headers: { "set-cookie": "token=echo-session; Path=/; Max-Age=600; HttpOnly; SameSite=Strict" },
      });
    }
    if (url.pathname.startsWith("/status/")) {
      return new Response("teapot", { status: Number(url.pathname.slice(8)) });
    }
    if (url.pathname === "/remember") {
      return new Response("{}", { headers: { "set-cookie": "pref=compact; Path=/; Max-Age=600" } });
    }
    if (url.pathname === "/redirect") {
      return new Response(null, { status: 302, headers: { location: "/landing?x=1" } });
    }
    if (url.pathname === "/page") {
      return new Response(
        `<html><head><meta name="deck-base" content="/"><link href="/static/app.css"></head><body><a href="/buckets">b</a><a href="//elsewhere">e</a></body></html>`,
        {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "x-frame-options": "DENY",
            "content-security-policy": "default-src 'self'; frame-ancestors 'none'",
          },
        },
      );
    }
    if (url.pathname === "/bytes") {
      const size = Number(url.searchParams.get("n"));
      let sent = 0;
      const chunk = new Uint8Array(64 * 1024).fill(7);
      return new Response(
        new ReadableStream({
          pull(controller) {
            const n = Math.min(chunk.length, size - sent);
            if (n <= 0) return controller.close();
            controller.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
            sent += n;
          },
        }),
      );
    }
    let received = 0;
    if (req.body) { for await (const part of req.body) received += part.length; }
    return Response.json({
      method: req.method,
      path: url.pathname,
      search: url.search,
      received,
      headers: Object.fromEntries(req.headers),
    });
  });
}

async function echoTenant(stack: OperatorStack, port: number): Promise<void> {
  const { store, operator } = stack.cluster;
  seedTenant(store, {
    namespace: "ns-b",
    name: "echo",
    root: { accessKey: "echo-admin", secretKey: "echo-secret-123" },
  });
  await operator.settled();
  const service = store.get(SERVICES, "ns-b", "echo-console")!;
  service.spec.ports = [{ name: "http-console", port, targetPort: 9090, protocol: "TCP" }];
  store.replace(SERVICES, service);
}

Deno.test("tenant proxy: permissions, sign-in and the tenant's real console", async (t) => {
  const stack = await startOperatorStack({ seedTenant: true });
  try {
    await t.step("no session: 401; a token that may not read the tenant: 403", async () => {
      const anonymous = await new ConsoleClient(stack.consoleUrl).request("GET", `${LITE}/`);
      assert.equal(anonymous.status, 401);
      await anonymous.body?.cancel();
      const nobody = await signInOperator(stack, stack.cluster.nobodyToken);
      const refused = await nobody.request("GET", `${LITE}/`);
      assert.equal(refused.status, 403);
      assert.match((await refused.json()).detailedMessage, /cannot get resource "tenants"/);
    });

    await t.step(
      "a namespace-limited token reaches its tenant: signed in, per-tenant cookie, redirects under the proxy",
      async () => {
        const viewer = await signInOperator(stack, stack.cluster.viewerToken);
        const res = await viewer.request("GET", `${LITE}/`);
        assert.equal(res.status, 302, "the upstream redirect is passed through");
        assert.equal(res.headers.get("location"), `${LITE}/dashboard`);
        const setCookie = res.headers.get("set-cookie")!;
        const digest = new Uint8Array(
          await crypto.subtle.digest("SHA-1", new TextEncoder().encode("tenant-lite/storage-lite")),
        ).toHex();
        assert.match(
          setCookie,
          new RegExp(`^token-${digest}=[^;]+; Path=${LITE}/;.*HttpOnly; SameSite=Strict`),
        );
        assert.doesNotMatch(setCookie, /Secure/, "not Secure without TLS");
        await res.body?.cancel();
      },
    );

    await t.step(
      "through the proxy: create and list the tenant's buckets, statuses as the tenant answered",
      async () => {
        const operator = await signInOperator(stack, stack.cluster.operatorToken);
        const first = await operator.request("GET", `${LITE}/api/v1/buckets`);
        const tenantCookie = /^(token-[0-9a-f]+=[^;]+)/.exec(first.headers.get("set-cookie")!)![1];
        assert.equal(first.status, 200);
        assert.deepEqual((await first.json()).buckets ?? [], []);
        const headers = { cookie: `${operator.cookie}; ${tenantCookie}` };
        const made = await fetch(`${stack.consoleUrl}${LITE}/api/v1/buckets`, {
          method: "POST",
          headers: { ...headers, origin: stack.consoleUrl, "content-type": "application/json" },
          body: JSON.stringify({ name: "through-the-hop" }),
        });
        assert.equal(made.status, 201, await made.text());
        const missing = await fetch(`${stack.consoleUrl}${LITE}/api/v1/buckets/nope`, { headers });
        assert.equal(
          missing.status,
          404,
          "the original always answered 200; the upstream status is passed through",
        );
        await missing.body?.cancel();
        const listed = await (await fetch(`${stack.consoleUrl}${LITE}/api/v1/buckets`, { headers })).json();
        assert.deepEqual(listed.buckets.map((b: { name: string }) => b.name), ["through-the-hop"]);
        const page = await fetch(`${stack.consoleUrl}${LITE}/buckets`, { headers });
        const html = await page.text();
        assert.equal(page.status, 200);
        assert.match(html, new RegExp(`<meta name="deck-base" content="${LITE}/">`));
        assert.match(html, new RegExp(`href="${LITE}/static/`));
        assert.equal(page.headers.get("x-frame-options"), "SAMEORIGIN");
        assert.match(page.headers.get("content-security-policy")!, /frame-ancestors 'self'/);
      },
    );

    await t.step("a cross-site write through the proxy is refused", async () => {
      const operator = await signInOperator(stack, stack.cluster.operatorToken);
      const res = await operator.request("POST", `${LITE}/api/v1/buckets`, { name: "evil" }, {
        origin: "https://evil.example",
      });
      assert.equal(res.status, 403);
      await res.body?.cancel();
    });
  } finally {
    await stack.close();
  }
});

Deno.test("tenant proxy: headers, cookies, streaming and WebSockets", async (t) => {
  const stack = await startOperatorStack({ seedTenant: false, backTenants: false });
  const echo = startEcho();
  try {
    await echoTenant(stack, (echo.addr as Deno.NetAddr).port);
    const operator = await signInOperator(stack, stack.cluster.operatorToken);
    const base = `${stack.consoleUrl}/api/proxy/ns-b/echo`;
    const first = await operator.request("GET", "/api/proxy/ns-b/echo/whoami?a=1&b=two%20words");
    const seen = await first.json();
    const tenantCookie = /^(token-[0-9a-f]+=[^;]+)/.exec(first.headers.get("set-cookie")!)![1];
    const cookies = `${operator.cookie}; ${tenantCookie}; theme=dark`;

    await t.step("the operator's cookie and credentials never go upstream; the tenant's session does", () => {
      assert.equal(seen.path, "/whoami");
      assert.equal(seen.search, "?a=1&b=two%20words");
      assert.equal(seen.headers.cookie, "token=echo-session");
      assert.equal(seen.headers.authorization, undefined);
    });

    await t.step("the tenant's own cookies pass, Deck's and hop-by-hop headers do not", async () => {
      const remembered = await fetch(`${base}/remember`, { headers: { cookie: cookies } });
      await remembered.body?.cancel();
      const pref = /^(token-[0-9a-f]+\.pref=compact); Path=\/api\/proxy\/ns-b\/echo\/;/.exec(
        remembered.headers.get("set-cookie")!,
      );
      assert.ok(pref, "a cookie the tenant sets is kept under a name of its own, scoped to the proxy");
      const res = await fetch(`${base}/h`, {
        headers: {
          cookie: `${cookies}; deck-download=42; deck_restart=1; token-0123abcd=other-tenant; ${pref[1]}`,
          connection: "keep-alive, x-secret-hop",
          "x-secret-hop": "1",
          "keep-alive": "timeout=5",
          "x-kept": "yes",
        },
      });
      const got = (await res.json()).headers;
      assert.equal(got.cookie, "pref=compact; token=echo-session");
      assert.equal(got["x-secret-hop"], undefined);
      assert.equal(got["keep-alive"], undefined);
      assert.equal(got["x-kept"], "yes");
    });

    await t.step("a hop path naming another host still reaches the tenant only", async () => {
      let reached = 0;
      const elsewhere = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, () => {
        reached++;
        return new Response("stolen");
      });
      const at = `127.0.0.1:${(elsewhere.addr as Deno.NetAddr).port}`;
      try {
        for (
          const [hop, expected] of [
            [`//${at}/steal`, `/${at}/steal`],
            [`/\\${at}/steal`, `/${at}/steal`],
            [`/%5C${at}/steal`, `/%5C${at}/steal`],
            [`//admin@${at}/steal`, `/admin@${at}/steal`],
          ]
        ) {
          const res = await fetch(`${base}${hop}?q=1`, { headers: { cookie: cookies } });
          const seen = await res.json();
          assert.equal(seen.path, expected, hop);
          assert.equal(seen.search, "?q=1");
        }
        const ws = await fetch(`${base}//${at}/ws`, {
          headers: { cookie: cookies, origin: stack.consoleUrl, ...upgrade },
        });
        await ws.body?.cancel();
        assert.equal(reached, 0, "nothing but the tenant's console was asked");
      } finally {
        await elsewhere.shutdown();
      }
    });

    await t.step("statuses and redirects as the tenant answered them", async () => {
      const teapot = await fetch(`${base}/status/418`, { headers: { cookie: cookies } });
      assert.equal(teapot.status, 418);
      assert.equal(await teapot.text(), "teapot");
      const redirect = await fetch(`${base}/redirect`, { headers: { cookie: cookies }, redirect: "manual" });
      assert.equal(redirect.status, 302);
      assert.equal(redirect.headers.get("location"), "/api/proxy/ns-b/echo/landing?x=1");
      await redirect.body?.cancel();
    });

    await t.step("pages are framed by us only and keep their links under the proxy", async () => {
      const res = await fetch(`${base}/page`, { headers: { cookie: cookies } });
      const html = await res.text();
      assert.equal(res.headers.get("x-frame-options"), "SAMEORIGIN");
      assert.equal(res.headers.get("content-security-policy"), "default-src 'self'; frame-ancestors 'self'");
      assert.match(html, /href="\/api\/proxy\/ns-b\/echo\/buckets"/);
      assert.match(html, /href="\/\/elsewhere"/);
      assert.match(html, /content="\/api\/proxy\/ns-b\/echo\/"/);
    });

    await t.step("bodies stream both ways", async () => {
      const size = 48 * 1024 * 1024;
      let sent = 0;
      const upload = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= size) return controller.close();
          controller.enqueue(new Uint8Array(1024 * 1024));
          sent += 1024 * 1024;
        },
      });
      const up = await fetch(
        `${base}/upload`,
        {
          method: "PUT",
          headers: { cookie: cookies, origin: stack.consoleUrl },
          body: upload,
          duplex: "half",
        } as RequestInit,
      );
      assert.equal(
        (await up.json()).received,
        size,
        "a body over the API's 1 MiB limit reaches the tenant whole",
      );
      const down = await fetch(`${base}/bytes?n=${size}`, { headers: { cookie: cookies } });
      let received = 0;
      for await (const chunk of down.body!) received += chunk.length;
      assert.equal(received, size);
    });

    await t.step(
      "WebSockets are relayed with the tenant's session; a cross-origin upgrade is refused",
      async () => {
        const wsBase = base.replace(/^http/, "ws");
        const ws = new WebSocket(
          `${wsBase}/ws/echo`,
          { headers: { cookie: cookies, origin: stack.consoleUrl } } as unknown as string[],
        );
        const reply = await new Promise<string>((resolve, reject) => {
          ws.onopen = () => ws.send("ping");
          ws.onmessage = (e) => resolve(String(e.data));
          ws.onerror = () => reject(new Error("relay failed"));
        });
        assert.equal(reply, "echo ping with token=echo-session");
        await new Promise<void>((resolve) => {
          ws.onclose = () => resolve();
          ws.close();
        });
        const foreign: Record<string, string>[] = [
          { origin: "https://evil.example" },
          { origin: "https://evil.example", "x-forwarded-host": "evil.example" },
          { origin: "null" },
          { origin: "not a url" },
        ];
        for (const headers of foreign) {
          const refused = await fetch(`${base}/ws/echo`, {
            headers: { cookie: cookies, ...headers, ...upgrade },
          });
          assert.equal(refused.status, 403, JSON.stringify(headers));
          assert.equal((await refused.json()).message, "cross-origin WebSocket refused");
        }
      },
    );
  } finally {
    await echo.shutdown();
    await stack.close();
  }
});
