/**
 * What a session may do is read live from the storage with its own credentials, so the console's own
 * decisions follow the account as it is now: page access and the menu after a policy change, the audit log
 * search (admin:OBDInfo, as MinIO's console asks) and the metrics widgets (admin:Prometheus), and nothing at
 * all for a session that was signed out, or whose user was disabled or deleted.
 */
import assert from "node:assert/strict";
import { addCannedPolicy, setPolicy, setUserStatus } from "../../server/lib/s3/admin/iam.ts";
import { LIVE_ACCESS_TTL_MS } from "../../server/console/session/live_access.ts";
import { eventually } from "../eventually.ts";
import {
  ConsoleClient,
  createUser,
  NARROW_POLICY,
  signIn,
  signInAsRoot,
  startStack,
  type TestStack,
} from "../helpers.ts";

/** A second holder of the same cookie, saved before the session ended. */
function copyOf(stack: TestStack, client: ConsoleClient): ConsoleClient {
  const copy = new ConsoleClient(stack.consoleUrl);
  copy.cookie = client.cookie;
  return copy;
}

/** Moves the console's clock past the live answers' lifetime, as a few seconds passing would. */
function laterBy(stack: TestStack, ms = LIVE_ACCESS_TTL_MS + 1): void {
  const before = stack.deps.now;
  stack.deps.now = () => before() + ms;
}

/** The sidebar's links of a page, by their text. */
async function menuOf(client: ConsoleClient, path: string): Promise<{ status: number; menu: string[] }> {
  const res = await client.request("GET", path);
  const html = await res.text();
  const nav = /<nav[^>]*aria-label="Main menu"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? "";
  const menu = [...nav.matchAll(/<a [^>]*>([\s\S]*?)<\/a>/g)].map((m) => m[1].replace(/<[^>]+>/g, "").trim());
  return { status: res.status, menu };
}

const METRICS_READER = {
  name: "metrics-reader",
  document: {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Action: ["admin:ServerInfo", "admin:Prometheus"] }],
  },
};

/** Allowed the Logs page (admin:ConsoleLog) and one bucket, not the audit log. */
const LOG_READER = {
  name: "log-reader",
  document: {
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Action: ["admin:ConsoleLog"] },
      { Effect: "Allow", Action: ["s3:*"], Resource: ["arn:aws:s3:::shared", "arn:aws:s3:::shared/*"] },
    ],
  },
};

const AUDITOR = {
  name: "auditor",
  document: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["admin:OBDInfo"] }] },
};

Deno.test("pages and the menu follow a policy change made after sign-in", async () => {
  const stack = await startStack();
  const realNow = stack.deps.now;
  try {
    await createUser(stack, "shifting", "shifting-secret-1", [{ name: "readwrite" }]);
    const user = await signIn(stack, "shifting", "shifting-secret-1");
    const root = await signInAsRoot(stack);
    const before = await user.request("GET", "/users");
    assert.equal(before.status, 302, "no Users page yet");
    await before.body?.cancel();
    assert.ok(!(await menuOf(user, "/buckets")).menu.includes("Users"));

    // The administrator gives the user consoleAdmin through the console, as a person would.
    const res = await root.request("PUT", "/api/v1/set-policy/consoleAdmin", {
      entityName: "shifting",
      entityType: "user",
    });
    assert.equal(res.status, 204, await res.text());
    laterBy(stack);
    const granted = await menuOf(user, "/users");
    assert.equal(granted.status, 200, "the Users page opens without signing in again");
    assert.ok(
      granted.menu.includes("Users") && granted.menu.includes("IAM Policies"),
      granted.menu.join(", "),
    );
    const session = await user.json<{ pages: string[] }>("GET", "/api/v1/session", undefined, 200);
    assert.ok(session.pages.includes("/users"), "the session API says the same");

    await root.request("PUT", "/api/v1/set-policy/readwrite", { entityName: "shifting", entityType: "user" })
      .then((r) => r.body?.cancel());
    laterBy(stack);
    const taken = await menuOf(user, "/buckets");
    assert.ok(!taken.menu.includes("Users"), "the menu loses Users");
    const refused = await user.request("GET", "/users");
    assert.equal(refused.status, 302, "and the page goes to the first allowed one");
    assert.equal(refused.headers.get("location"), "/object-browser");
    await refused.body?.cancel();
    assert.ok(
      !(await user.json<{ pages: string[] }>("GET", "/api/v1/session", undefined, 200)).pages.includes(
        "/users",
      ),
    );
  } finally {
    stack.deps.now = realNow;
    await stack.close();
  }
});

Deno.test("a session in use is renewed before its answer runs out: no page waits for the storage", async () => {
  const stack = await startStack();
  const realNow = stack.deps.now;
  // The console's clock stands still, so an answer's age is exactly what the test sets.
  const t0 = realNow();
  stack.deps.now = () => t0;
  try {
    await createUser(stack, "renewing", "renewing-secret-1", [{ name: "readwrite" }]);
    const user = await signIn(stack, "renewing", "renewing-secret-1");
    assert.ok(!(await menuOf(user, "/buckets")).menu.includes("Users"));
    const root = await signInAsRoot(stack);
    const res = await root.request("PUT", "/api/v1/set-policy/consoleAdmin", {
      entityName: "renewing",
      entityType: "user",
    });
    assert.equal(res.status, 204, await res.text());

    // In the answer's last part: this page is served the answer, which still stands, without waiting…
    stack.deps.now = () => t0 + LIVE_ACCESS_TTL_MS - 1;
    assert.ok(!(await menuOf(user, "/buckets")).menu.includes("Users"), "the answer that still stands");
    // …and the storage is asked meanwhile: the next pages show the change, the clock still short of the end.
    await eventually(
      "the renewed answer to give the menu Users",
      async () => (await menuOf(user, "/buckets")).menu,
      {
        until: (menu) => menu.includes("Users"),
        timeoutMs: 10_000,
      },
    );
  } finally {
    stack.deps.now = realNow;
    await stack.close();
  }
});

Deno.test("audit log search needs admin:OBDInfo now, with the user's own credentials", async (t) => {
  const stack = await startStack({ logSearch: true });
  const realNow = stack.deps.now;
  try {
    const root = await signInAsRoot(stack);
    const search = "/api/v1/logs/search?pageSize=10&order=timeDesc";

    await t.step("a bucket-limited user is refused, and its session has no log-search feature", async () => {
      await createUser(stack, "narrow-user", "narrow-secret-1", [NARROW_POLICY]);
      const narrow = await signIn(stack, "narrow-user", "narrow-secret-1");
      const refused = await narrow.json<{ message: string; detailedMessage: string }>(
        "GET",
        search,
        undefined,
        403,
      );
      assert.equal(refused.message, "access denied");
      assert.equal(refused.detailedMessage, "searching the audit log needs admin:OBDInfo");
      assert.deepEqual(
        (await narrow.json<{ features: string[] }>("GET", "/api/v1/session", undefined, 200)).features,
        [],
      );
    });

    await t.step("the Logs page tells a user without admin:OBDInfo why Audit Logs is closed", async () => {
      await createUser(stack, "log-reader", "log-reader-secret-1", [LOG_READER]);
      const reader = await signIn(stack, "log-reader", "log-reader-secret-1");
      const page = await reader.request("GET", "/logs?tab=audit");
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.match(
        html,
        /data-testid="audit-refused"[^>]*>Searching the audit log needs the admin:OBDInfo permission/,
      );
      assert.doesNotMatch(html, /data-island="AuditLogs"/);
    });

    await t.step("a user allowed admin:OBDInfo and nothing else may search", async () => {
      await createUser(stack, "auditor", "auditor-secret-1", [AUDITOR]);
      const auditor = await signIn(stack, "auditor", "auditor-secret-1");
      assert.ok(
        Array.isArray((await auditor.json<{ results: unknown[] }>("GET", search, undefined, 200)).results),
      );
      assert.deepEqual(
        (await auditor.json<{ features: string[] }>("GET", "/api/v1/session", undefined, 200)).features,
        ["log-search"],
      );
    });

    await t.step("an admin who signs out reads nothing with a replayed cookie", async () => {
      await createUser(stack, "admin-out", "admin-out-secret-1", [{ name: "consoleAdmin" }]);
      const admin = await signIn(stack, "admin-out", "admin-out-secret-1");
      await admin.json("GET", search, undefined, 200);
      const saved = copyOf(stack, admin);
      await admin.json("POST", "/api/v1/logout", undefined, 200);
      const body = await saved.json<{ results?: unknown }>("GET", search, undefined, 401);
      assert.equal(body.results, undefined);
    });

    await t.step("an admin disabled or deleted through the console reads nothing", async () => {
      for (const [name, end] of [["admin-disabled", "disable"], ["admin-deleted", "delete"]] as const) {
        await createUser(stack, name, `${name}-secret-1`, [{ name: "consoleAdmin" }]);
        const admin = await signIn(stack, name, `${name}-secret-1`);
        await admin.json("GET", search, undefined, 200);
        if (end === "disable") {
          await root.json("PUT", `/api/v1/user?name=${name}`, { status: "disabled", groups: [] }, 200);
        } else {
          const res = await root.request("DELETE", `/api/v1/user?name=${name}`);
          assert.equal(res.status, 204, await res.text());
        }
        await admin.json("GET", search, undefined, 401);
      }
    });

    await t.step(
      "disabled outside the console, or losing the permission: refused within seconds",
      async () => {
        await createUser(stack, "admin-mc", "admin-mc-secret-1", [{ name: "consoleAdmin" }]);
        await createUser(stack, "admin-demoted", "admin-demoted-secret-1", [{ name: "consoleAdmin" }]);
        const disabled = await signIn(stack, "admin-mc", "admin-mc-secret-1");
        const demoted = await signIn(stack, "admin-demoted", "admin-demoted-secret-1");
        await disabled.json("GET", search, undefined, 200);
        await demoted.json("GET", search, undefined, 200);
        await setUserStatus(stack.admin, "admin-mc", "disabled");
        await setPolicy(stack.admin, ["readwrite"], "admin-demoted", false);
        laterBy(stack);
        await disabled.json("GET", search, undefined, 401);
        await demoted.json("GET", search, undefined, 403);
      },
    );
  } finally {
    stack.deps.now = realNow;
    await stack.close();
  }
});

Deno.test("metrics widgets answer only while the session may read metrics", async (t) => {
  const stack = await startStack();
  const realNow = stack.deps.now;
  const widget = "/api/v1/admin/info/widgets/66/";
  try {
    const root = await signInAsRoot(stack);
    await t.step("the permission removed after sign-in: 403, and the widget list goes", async () => {
      await createUser(stack, "watcher", "watcher-secret-1", [METRICS_READER]);
      const user = await signIn(stack, "watcher", "watcher-secret-1");
      await user.json("GET", widget, undefined, 200);
      await addCannedPolicy(
        stack.admin,
        "server-info",
        JSON.stringify({
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: ["admin:ServerInfo"] }],
        }),
      );
      const res = await root.request("PUT", "/api/v1/set-policy/server-info", {
        entityName: "watcher",
        entityType: "user",
      });
      assert.equal(res.status, 204, await res.text());
      laterBy(stack);
      const refused = await user.json<{ detailedMessage: string }>("GET", widget, undefined, 403);
      assert.equal(refused.detailedMessage, "reading metrics needs admin:Prometheus");
      const info = await user.json<{ widgets?: unknown }>("GET", "/api/v1/admin/info", undefined, 200);
      assert.equal(info.widgets, undefined);
    });

    await t.step("signed out, disabled or deleted: 401", async () => {
      for (const end of ["sign-out", "disable", "delete", "disable elsewhere"] as const) {
        const name = `metrics-${end.replace(" ", "-")}`;
        await createUser(stack, name, `${name}-secret-1`, [METRICS_READER]);
        const user = await signIn(stack, name, `${name}-secret-1`);
        await user.json("GET", widget, undefined, 200);
        const saved = copyOf(stack, user);
        if (end === "sign-out") await user.json("POST", "/api/v1/logout", undefined, 200);
        if (end === "disable") {
          await root.json("PUT", `/api/v1/user?name=${name}`, { status: "disabled", groups: [] }, 200);
        }
        if (end === "delete") {
          await root.request("DELETE", `/api/v1/user?name=${name}`).then((r) => r.body?.cancel());
        }
        if (end === "disable elsewhere") {
          await setUserStatus(stack.admin, name, "disabled");
          laterBy(stack);
        }
        await saved.json("GET", widget, undefined, 401);
      }
    });
  } finally {
    stack.deps.now = realNow;
    await stack.close();
  }
});
