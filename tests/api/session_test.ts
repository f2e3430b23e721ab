import assert from "node:assert/strict";
import { sealSession } from "../../server/console/session/token.ts";
import {
  ConsoleClient,
  consoleRoutes,
  createUser,
  NARROW_POLICY,
  signIn,
  signInAsRoot,
  startStack,
} from "../helpers.ts";

Deno.test("sign-in, session and sign-out against the embedded storage server", async (t) => {
  const stack = await startStack();
  try {
    await t.step("GET /login offers the form when no identity provider is configured", async () => {
      const body = await new ConsoleClient(stack.consoleUrl).json("GET", "/api/v1/login", undefined, 200);
      assert.deepEqual(body, { loginStrategy: "form" });
    });

    await t.step("wrong secret → 401 invalid Login, no cookie", async () => {
      const client = new ConsoleClient(stack.consoleUrl);
      const res = await client.request("POST", "/api/v1/login", {
        accessKey: stack.storage.root.accessKey,
        secretKey: "wrong-secret",
      });
      assert.equal(res.status, 401);
      const body = await res.json();
      assert.equal(body.message, "invalid Login");
      assert.equal(body.code, 401);
      assert.equal(client.cookie, "");
    });

    await t.step("missing fields and malformed JSON → 400 naming the problem", async () => {
      const client = new ConsoleClient(stack.consoleUrl);
      const missing = await client.json<{ fields: Record<string, string> }>("POST", "/api/v1/login", {
        accessKey: "x",
      }, 400);
      assert.ok(missing.fields.secretKey);
      const malformed = await client.request("POST", "/api/v1/login", "{not json");
      assert.equal(malformed.status, 400);
      assert.match((await malformed.json()).message, /malformed JSON/);
    });

    await t.step(
      "root session: every console page, distributed mode, cookie HttpOnly and SameSite=Strict",
      async () => {
        const client = new ConsoleClient(stack.consoleUrl);
        const res = await client.request("POST", "/api/v1/login", {
          accessKey: stack.storage.root.accessKey,
          secretKey: stack.storage.root.secretKey,
        });
        assert.equal(res.status, 201);
        const cookie = res.headers.get("set-cookie") ?? "";
        assert.match(cookie, /HttpOnly/);
        assert.match(cookie, /SameSite=Strict/);
        assert.doesNotMatch(cookie, /Secure/, "no Secure flag without TLS");
        // A plain substring check: a generated secret may hold regex characters such as "+".
        assert.ok(!(await res.text()).includes(stack.storage.root.secretKey), "no secret in the body");
        const session = await client.json<
          { status: string; pages: string[]; distributedMode: boolean; operator?: boolean }
        >("GET", "/api/v1/session", undefined, 200);
        assert.equal(session.status, "ok");
        assert.equal(session.distributedMode, true);
        assert.equal(session.operator, undefined);
        for (
          const page of ["/dashboard", "/buckets", "/users", "/groups", "/policies", "/settings", "/account"]
        ) assert.ok(session.pages.includes(page), page);
      },
    );

    await t.step("a user with a narrow policy gets only the always-granted pages", async () => {
      await createUser(stack, "reader", "reader-secret-1", [NARROW_POLICY]);
      const client = await signIn(stack, "reader", "reader-secret-1");
      const session = await client.json<{ pages: string[] }>("GET", "/api/v1/session", undefined, 200);
      assert.ok(!session.pages.includes("/dashboard"));
      assert.ok(!session.pages.includes("/users"));
      assert.ok(session.pages.includes("/object-browser"));
      assert.ok(session.pages.includes("/account"));
      // An unknown route goes to its first allowed page: the Object Browser, first of the User group.
      const res = await client.request("GET", "/no/such/page");
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "/object-browser");
      await res.body?.cancel();
      // A page it may not see sends it there too.
      const users = await client.request("GET", "/users");
      assert.equal(users.status, 302);
      assert.equal(users.headers.get("location"), "/object-browser");
      await users.body?.cancel();
    });

    await t.step("an unknown API path with a session is a JSON 404", async () => {
      const client = await signInAsRoot(stack);
      const body = await client.json<{ code: number }>("GET", "/api/v1/no-such-thing", undefined, 404);
      assert.equal(body.code, 404);
    });

    await t.step("sign-out expires the cookie; the old session is then refused", async () => {
      const client = await signInAsRoot(stack);
      const res = await client.request("POST", "/api/v1/logout");
      assert.equal(res.status, 200);
      assert.match(res.headers.get("set-cookie") ?? "", /Max-Age=0/);
      await res.body?.cancel();
      assert.equal((await client.request("GET", "/api/v1/session")).status, 401);
    });

    await t.step("forged and expired cookies → 401 in the contract shape", async () => {
      const forged = new ConsoleClient(stack.consoleUrl);
      forged.cookie = "token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
      const res = await forged.request("GET", "/api/v1/session");
      assert.equal(res.status, 401);
      assert.deepEqual(Object.keys(await res.json()).sort(), ["code", "detailedMessage", "message"]);
      const expired = new ConsoleClient(stack.consoleUrl);
      const token = await sealSession(stack.deps.sessionKey, {
        accessKey: "X",
        secretKey: "Y",
        sessionToken: "Z",
        account: "root",
        distributed: true,
        sso: false,
        expiresAt: Date.now() - 1000,
      });
      expired.cookie = `token=${token}`;
      const expiredRes = await expired.request("GET", "/api/v1/session");
      assert.equal(expiredRes.status, 401);
      assert.match(expiredRes.headers.get("set-cookie") ?? "", /token=;/, "a dead cookie is cleared");
      await expiredRes.body?.cancel();
    });

    await t.step("a state-changing request from another origin is refused", async () => {
      const client = await signInAsRoot(stack);
      const res = await client.request("POST", "/api/v1/logout", undefined, {
        origin: "http://evil.example",
      });
      assert.equal(res.status, 403);
      assert.match((await res.json()).message, /cross-origin/);
      const login = await new ConsoleClient(stack.consoleUrl).request("POST", "/api/v1/login", {
        accessKey: "a",
        secretKey: "b",
      }, { origin: "null" });
      assert.equal(login.status, 403);
      await login.body?.cancel();
    });

    await t.step("repeated failed sign-ins from one address are slowed down", async () => {
      const client = new ConsoleClient(stack.consoleUrl);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await client.request("POST", "/api/v1/login", {
          accessKey: "nobody",
          secretKey: "guessing" + i,
        });
        statuses.push(res.status);
        await res.body?.cancel();
      }
      assert.deepEqual(statuses.slice(0, 3), [401, 401, 401]);
      assert.equal(statuses[3], 429);
      const blocked = await client.request("POST", "/api/v1/login", {
        accessKey: stack.storage.root.accessKey,
        secretKey: stack.storage.root.secretKey,
      });
      assert.equal(blocked.status, 429, "even the right password waits");
      assert.ok(Number(blocked.headers.get("retry-after")) >= 1);
      await blocked.body?.cancel();
    });
  } finally {
    await stack.close();
  }
});

Deno.test("every /api/v1 route except sign-in answers 401 without a session", async () => {
  const stack = await startStack();
  try {
    const routes = (await consoleRoutes(stack.deps)).filter((r) =>
      r.path.startsWith("/api/v1/") && r.method !== "ALL" && !r.path.includes("*")
    );
    const publicRoutes = new Set([
      "GET /api/v1/login",
      "POST /api/v1/login",
      "POST /api/v1/login/operator",
      "POST /api/v1/login/oauth2/auth",
    ]);
    const guarded = routes.filter((r) => !publicRoutes.has(`${r.method} ${r.path}`));
    assert.ok(guarded.length >= 2, "routes are enumerated from the app");
    const client = new ConsoleClient(stack.consoleUrl);
    for (const route of guarded) {
      const path = route.path.replace(/:[A-Za-z_]+\{?[^/]*\}?/g, "x");
      const res = await client.request(
        route.method,
        path,
        route.method === "GET" || route.method === "DELETE" ? undefined : {},
      );
      assert.equal(res.status, 401, `${route.method} ${path}`);
      await res.body?.cancel();
    }
  } finally {
    await stack.close();
  }
});

Deno.test("X-Forwarded-Host is trusted for the origin check only when CONSOLE_TRUST_FORWARDED is on", async () => {
  const attempt = async (
    stack: Awaited<ReturnType<typeof startStack>>,
    origin: string,
    forwardedHost: string,
  ) => {
    const client = await signInAsRoot(stack);
    const res = await client.request("POST", "/api/v1/buckets", {
      name: `fwd-${crypto.randomUUID().slice(0, 8)}`,
    }, { origin, "x-forwarded-host": forwardedHost });
    await res.body?.cancel();
    return res.status;
  };
  const direct = await startStack();
  try {
    assert.equal(
      await attempt(direct, "http://evil.example", "evil.example"),
      403,
      "a forged X-Forwarded-Host does not make another origin ours",
    );
    assert.equal(
      await attempt(direct, direct.consoleUrl, "console.example"),
      201,
      "nor does it break our own origin",
    );
  } finally {
    await direct.close();
  }
  const proxied = await startStack({ env: { CONSOLE_TRUST_FORWARDED: "on" } });
  try {
    assert.equal(
      await attempt(proxied, "https://console.example", "console.example"),
      201,
      "behind a proxy, the forwarded host is the console's",
    );
    assert.equal(await attempt(proxied, "http://evil.example", "console.example"), 403);
  } finally {
    await proxied.close();
  }
});
