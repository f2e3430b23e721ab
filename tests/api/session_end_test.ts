/**
 * Sessions that end: after sign-out, a password reset, disabling or deleting a user, a copy of the user's
 * session cookie stops working at once, on the API (401) and on every page (to /login), because its
 * credentials are revoked on the storage server, which every console replica asks on every call.
 */
import assert from "node:assert/strict";
import { setUserStatus } from "../../server/lib/s3/admin/iam.ts";
import {
  ConsoleClient,
  consoleRoutes,
  createUser,
  signIn,
  signInAsRoot,
  startStack,
  type TestStack,
} from "../helpers.ts";

/** Asserts that the session is refused everywhere a user would notice: the session check, a write, a page. */
async function assertEnded(client: ConsoleClient, what: string) {
  const session = await client.request("GET", "/api/v1/session");
  assert.equal(session.status, 401, `${what}: GET /api/v1/session`);
  await session.body?.cancel();
  const create = await client.request("POST", "/api/v1/buckets", {
    name: `after-end-${crypto.randomUUID().slice(0, 8)}`,
  });
  assert.equal(create.status, 401, `${what}: POST /api/v1/buckets`);
  await create.body?.cancel();
  const page = await client.request("GET", "/buckets");
  assert.equal(page.status, 302, `${what}: GET /buckets`);
  assert.equal(page.headers.get("location"), "/login");
  await page.body?.cancel();
}

/** A second, independent holder of the same cookie (a copy saved before the session ended). */
function copyOf(stack: TestStack, client: ConsoleClient): ConsoleClient {
  const copy = new ConsoleClient(stack.consoleUrl);
  copy.cookie = client.cookie;
  return copy;
}

async function assertAlive(client: ConsoleClient, what: string) {
  const res = await client.request("GET", "/api/v1/session");
  assert.equal(res.status, 200, `${what}: ${await res.text()}`);
}

Deno.test("sessions end on sign-out, password reset, disable and delete", async (t) => {
  const stack = await startStack();
  try {
    await t.step(
      "sign-out ends that session (a saved copy of the cookie too), not the account's others",
      async () => {
        const first = await signInAsRoot(stack);
        const other = await signInAsRoot(stack);
        const saved = copyOf(stack, first);
        const res = await first.request("POST", "/api/v1/logout");
        assert.equal(res.status, 200);
        await res.body?.cancel();
        await assertEnded(saved, "after sign-out");
        await assertAlive(other, "another sign-in of the same account");
      },
    );

    await t.step("an administrator's password reset ends the user's sessions", async () => {
      await createUser(stack, "reset-me", "reset-secret-1", [{ name: "readwrite" }]);
      const user = await signIn(stack, "reset-me", "reset-secret-1");
      const admin = await signInAsRoot(stack);
      await admin.json("POST", "/api/v1/account/change-user-password", {
        selectedUser: "reset-me",
        newSecretKey: "reset-secret-2",
      }, 201);
      await assertEnded(user, "after a password reset");
      await assertAlive(admin, "the administrator");
      await signIn(stack, "reset-me", "reset-secret-2");
    });

    await t.step(
      "changing one's own password ends the account's other sessions and keeps this one",
      async () => {
        await createUser(stack, "own-pass", "own-secret-1", [{ name: "readwrite" }]);
        const elsewhere = await signIn(stack, "own-pass", "own-secret-1");
        const here = await signIn(stack, "own-pass", "own-secret-1");
        await here.json("POST", "/api/v1/account/change-password", {
          current_secret_key: "own-secret-1",
          new_secret_key: "own-secret-2",
        }, 201);
        await assertEnded(elsewhere, "another session after changing one's password");
        await assertAlive(here, "the session that changed it (renewed cookie)");
      },
    );

    await t.step("disabling a user through the console ends its sessions", async () => {
      await createUser(stack, "disable-me", "disable-secret-1", [{ name: "readwrite" }]);
      const user = await signIn(stack, "disable-me", "disable-secret-1");
      const admin = await signInAsRoot(stack);
      await admin.json("PUT", "/api/v1/user?name=disable-me", { status: "disabled", groups: [] }, 200);
      await assertEnded(user, "after disabling");
      // Re-enabling does not bring the revoked session back.
      await admin.json("PUT", "/api/v1/user?name=disable-me", { status: "enabled", groups: [] }, 200);
      await assertEnded(user, "after re-enabling");
    });

    await t.step("a user disabled outside the console (admin API) is refused too", async () => {
      await createUser(stack, "mc-disabled", "mc-secret-1", [{ name: "readwrite" }]);
      const user = await signIn(stack, "mc-disabled", "mc-secret-1");
      await setUserStatus(stack.admin, "mc-disabled", "disabled");
      await assertEnded(user, "after disabling with the admin API");
    });

    await t.step("deleting a user ends its sessions", async () => {
      await createUser(stack, "delete-me", "delete-secret-1", [{ name: "readwrite" }]);
      const user = await signIn(stack, "delete-me", "delete-secret-1");
      const admin = await signInAsRoot(stack);
      const res = await admin.request("DELETE", "/api/v1/user?name=delete-me");
      assert.equal(res.status, 204, await res.text());
      await assertEnded(user, "after deleting");
    });
  } finally {
    await stack.close();
  }
});

Deno.test("every page sends a session the storage server refuses to sign-in, clearing the cookie", async () => {
  const stack = await startStack();
  try {
    await stack.admin.send({ method: "PUT", bucket: "page-bucket" });
    await createUser(stack, "page-user", "page-secret-1", [{ name: "consoleAdmin" }]);
    const user = await signIn(stack, "page-user", "page-secret-1");
    const pages = (await consoleRoutes(stack.deps))
      // WebSocket relays are not pages: the storage refuses them after the upgrade (tests/ws/relays_test.ts).
      .filter((r) =>
        r.method === "GET" && !r.path.startsWith("/api/") && !r.path.startsWith("/static/") &&
        !r.path.startsWith("/ws/") && !r.path.includes("*")
      )
      .map((r) => r.path)
      .filter((path) => !["/login", "/login/sso", "/oauth_callback", "/healthz"].includes(path));
    assert.ok(pages.length >= 8, `pages are enumerated from the app: ${pages.join(" ")}`);
    await setUserStatus(stack.admin, "page-user", "disabled");
    for (const pattern of [...new Set(pages)]) {
      const path = pattern
        .replace(/:bucket\b/, "page-bucket")
        .replace(/:section\b/, "summary")
        .replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "x");
      const copy = copyOf(stack, user);
      const res = await copy.request("GET", path);
      const body = await res.text();
      assert.equal(res.status, 302, `${path} answered ${res.status}: ${body.slice(0, 200)}`);
      const location = res.headers.get("location") ?? "";
      assert.ok(location.startsWith("/"), `${path} → ${location}`);
      if (location !== "/login") {
        // A redirect to another page (e.g. "/" → first page, "/buckets/x" → its summary): that page must refuse.
        const next = await copyOf(stack, user).request("GET", location);
        await next.body?.cancel();
        assert.equal(next.status, 302, `${path} → ${location} answered ${next.status}`);
        assert.equal(next.headers.get("location"), "/login", `${path} → ${location}`);
      } else {
        assert.match(res.headers.get("set-cookie") ?? "", /token=;/, `${path} clears the dead cookie`);
      }
    }
  } finally {
    await stack.close();
  }
});
