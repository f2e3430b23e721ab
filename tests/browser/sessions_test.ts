/**
 * Sessions end when they should, seen in Chromium: the sidebar's Logout ends the session itself (a saved copy
 * of the cookie is refused by the API and the pages), the menu and pages follow a policy change without a new
 * sign-in, the Logs page says why Audit Logs is closed to an account without admin:OBDInfo, and a live trace
 * stops with an explanation when the account is disabled. A console-mode and an operator-mode Deck on one host
 * each send a session of the other mode to sign in.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { ConsoleClient, createUser, signInAsRoot, startStack, type TestStack } from "../helpers.ts";
import { LIVE_ACCESS_TTL_MS } from "../../server/console/session/live_access.ts";
import { startOperatorStack } from "../operator_helpers.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

/** The session cookie the browser holds now. */
async function sessionCookie(page: Page): Promise<string> {
  const token = (await page.context().cookies()).find((c) => c.name === "token");
  assert.ok(token, "the browser holds a session cookie");
  return `token=${token.value}`;
}

async function signOutThroughSidebar(page: Page): Promise<void> {
  await page.getByRole("complementary").getByRole("button", { name: "Logout" }).click();
  await page.waitForURL("**/login");
}

/** Signs in through the form from a browser holding no session, whatever the previous step left. */
async function signInAfresh(page: Page, accessKey: string, secretKey: string): Promise<void> {
  await page.context().clearCookies();
  await signInThroughForm(page, accessKey, secretKey);
}

/** A client holding a copy of a cookie, as someone who saved it would. */
function replaying(stack: TestStack, cookie: string): ConsoleClient {
  const client = new ConsoleClient(stack.consoleUrl);
  client.cookie = cookie;
  return client;
}

Deno.test("browser: sessions end on Logout, follow policy changes, and live streams say why they stop", async (t) => {
  const stack = await startStack({ logSearch: true });
  const browser = await openBrowser(stack);
  const { page } = browser;
  const realNow = stack.deps.now;
  try {
    const root = await signInAsRoot(stack);

    await t.step("the sidebar's Logout ends the session: a saved cookie is refused everywhere", async () => {
      await signInAfresh(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
      const saved = await sessionCookie(page);
      await signOutThroughSidebar(page);
      const copy = replaying(stack, saved);
      const session = await copy.request("GET", "/api/v1/session");
      assert.equal(session.status, 401, "the session API");
      await session.body?.cancel();
      const list = await copy.request("GET", "/api/v1/buckets");
      assert.equal(list.status, 401, "listing buckets");
      await list.body?.cancel();
      const create = await copy.request("POST", "/api/v1/buckets", { name: "after-logout" });
      assert.equal(create.status, 401, "creating a bucket");
      await create.body?.cancel();
      const pageAnswer = await copy.request("GET", "/buckets");
      assert.equal(pageAnswer.status, 302, "a page");
      assert.equal(pageAnswer.headers.get("location"), "/login");
      await pageAnswer.body?.cancel();
      // The same copy put back into a browser lands on the sign-in page.
      await page.context().addCookies([{
        name: "token",
        value: saved.slice("token=".length),
        url: stack.consoleUrl,
      }]);
      await page.goto("/buckets");
      assert.equal(new URL(page.url()).pathname, "/login");
    });

    await t.step("the menu and pages follow a policy change without a new sign-in", async () => {
      await createUser(stack, "promoted", "promoted-secret-1", [{ name: "readwrite" }]);
      await signInAfresh(page, "promoted", "promoted-secret-1");
      const menu = page.getByRole("navigation", { name: "Main menu" });
      assert.equal(await menu.getByRole("link", { name: "Users", exact: true }).count(), 0);
      const res = await root.request("PUT", "/api/v1/set-policy/consoleAdmin", {
        entityName: "promoted",
        entityType: "user",
      });
      assert.equal(res.status, 204, await res.text());
      // A few seconds later (the console's clock: the live answer is kept that long), a reload shows it.
      stack.deps.now = () => realNow() + LIVE_ACCESS_TTL_MS + 1;
      await page.reload();
      await menu.getByRole("link", { name: "Users", exact: true }).click();
      await page.waitForURL("**/users");
      await page.getByRole("heading", { name: "Users" }).first().waitFor();
      stack.deps.now = realNow;
    });

    await t.step(
      "the Logs page says why Audit Logs is closed to an account without admin:OBDInfo",
      async () => {
        await createUser(stack, "log-reader", "log-reader-secret-1", [{
          name: "console-log-only",
          document: { Version: "2012-10-17", Statement: [{ Effect: "Allow", Action: ["admin:ConsoleLog"] }] },
        }]);
        await signInAfresh(page, "log-reader", "log-reader-secret-1");
        await page.goto("/logs?tab=audit");
        const refusal = page.getByTestId("audit-refused");
        assert.equal(
          await refusal.innerText(),
          "Searching the audit log needs the admin:OBDInfo permission, which your account does not have.",
        );
        await assertAccessible(page, "Logs with Audit Logs refused");
        await signOutThroughSidebar(page);
      },
    );

    await t.step("a running trace stops with an explanation when the account is disabled", async () => {
      await createUser(stack, "streamer", "streamer-secret-1", [{ name: "consoleAdmin" }]);
      await signInAfresh(page, "streamer", "streamer-secret-1");
      await page.goto("/trace");
      await page.getByRole("button", { name: "Start" }).click();
      await page.getByText("No Traced elements received yet").waitFor();
      await root.json("PUT", "/api/v1/user?name=streamer", { status: "disabled", groups: [] }, 200);
      const notice = page.getByTestId("live-ended");
      await notice.waitFor();
      assert.match(await notice.innerText(), /This stream stopped because your session ended/);
      assert.equal(
        await notice.getByRole("link", { name: "Sign in again" }).getAttribute("href"),
        "/login",
      );
      assert.equal(await page.getByRole("button", { name: "Start" }).isEnabled(), true, "the trace stopped");
      await assertAccessible(page, "Trace stopped by the end of its session");
    });
  } finally {
    stack.deps.now = realNow;
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: a console Deck and an operator Deck on one host each ask to sign in for the other's session", async (t) => {
  // Replicas share these settings; two Decks of different modes on one host may too. Cookies go to every
  // port of a host, so each Deck receives the session the other sealed, and can open it.
  const sharedKey = { CONSOLE_PBKDF_PASSPHRASE: "one passphrase", CONSOLE_PBKDF_SALT: "one salt" };
  const consoleDeck = await startStack({ env: sharedKey });
  const operatorDeck = await startOperatorStack({ env: sharedKey });
  const browser = await openBrowser(consoleDeck);
  const { page } = browser;
  try {
    await t.step("signed in to the console, the operator Deck's tenants page shows its sign-in", async () => {
      await signInThroughForm(page, consoleDeck.storage.root.accessKey, consoleDeck.storage.root.secretKey);
      await page.goto(`${operatorDeck.consoleUrl}/tenants`);
      await page.waitForURL(`${operatorDeck.consoleUrl}/login`);
      await page.getByRole("heading", { name: "Operator Login" }).waitFor();
    });
    await t.step("signed in as the operator, the console's buckets page shows its sign-in", async () => {
      await page.getByLabel("JWT").fill(operatorDeck.cluster.operatorToken);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL(`${operatorDeck.consoleUrl}/tenants`);
      await page.goto(`${consoleDeck.consoleUrl}/buckets`);
      await page.waitForURL(`${consoleDeck.consoleUrl}/login`);
      await page.getByPlaceholder("Enter Username").waitFor();
    });
  } finally {
    await browser.close();
    await operatorDeck.close();
    await consoleDeck.close();
  }
});
