import assert from "node:assert/strict";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { putObject } from "../../server/lib/s3/ops/objects.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

Deno.test("browser: sign-in, dashboard, unknown route, theme and sign-out", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await t.step("a visit without a session lands on /login", async () => {
      await page.goto("/dashboard");
      assert.equal(new URL(page.url()).pathname, "/login");
      await page.getByText("Console Login").waitFor();
      assert.equal(
        await page.getByRole("button", { name: "Login" }).isDisabled(),
        true,
        "disabled while fields are empty",
      );
    });

    await t.step("a wrong password shows the red banner", async () => {
      browser.expectConsoleError(/status of 401/);
      await page.getByPlaceholder("Enter Username").fill(stack.storage.root.accessKey);
      await page.getByPlaceholder("Enter Password").fill("not-the-password");
      await page.getByRole("button", { name: "Login" }).click();
      const banner = page.getByTestId("error-banner");
      await banner.waitFor();
      assert.match(await banner.innerText(), /Error[\s\S]*Invalid Login/);
      assert.equal(new URL(page.url()).pathname, "/login");
    });

    await t.step("sign-in shows the embedded server's numbers on the dashboard", async () => {
      await makeBucket(stack.admin, "photos");
      await putObject(stack.admin, "photos", "cat.jpg", new Uint8Array(2048));
      await putObject(stack.admin, "photos", "dog.jpg", new Uint8Array(1024));
      await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
      assert.equal(new URL(page.url()).pathname, "/dashboard");
      // The metrics widgets are the default view; the basic usage view is one link away.
      await page.getByRole("link", { name: "Basic view" }).click();
      await page.waitForURL("**/dashboard?view=basic");
      assert.equal(await page.getByTestId("buckets-count").innerText(), "1");
      assert.equal(await page.getByTestId("objects-count").innerText(), "2");
      assert.equal(await page.getByTestId("usage").innerText(), "3 KiB");
      assert.match(await page.getByTestId("server-card").innerText(), /online[\s\S]*Drives: 1\/1/);
      assert.ok(await page.getByTestId("drive-card").isVisible());
      const localUser = await page.evaluate(() => localStorage.getItem("userLoggedIn"));
      assert.equal(localUser, btoa(stack.storage.root.accessKey));
    });

    await t.step("Documentation opens the console's documentation in a new tab", async () => {
      const docs = page.getByRole("navigation", { name: "Main menu" }).getByRole("link", {
        name: "Documentation",
      });
      assert.match((await docs.getAttribute("href"))!, /minio-console\.html\?ref=con$/);
      assert.equal(await docs.getAttribute("target"), "_blank");
    });

    await t.step("the basic view ships no script", async () => {
      const scripts = await page.locator("script[src]").count();
      assert.equal(scripts, 0);
    });

    await t.step("an unknown route goes to the first allowed page", async () => {
      await page.goto("/no/such/page");
      assert.equal(new URL(page.url()).pathname, "/dashboard");
    });

    await t.step("the theme switch works without script", async () => {
      await page.getByRole("button", { name: "Dark" }).click();
      await page.waitForURL("**/dashboard");
      assert.equal(await page.locator("html").getAttribute("data-theme"), "deck-dark");
      await page.getByRole("button", { name: "Light" }).click();
      await page.waitForURL("**/dashboard");
      assert.equal(await page.locator("html").getAttribute("data-theme"), "deck");
    });

    await t.step("sign-out returns to /login and the session is gone", async () => {
      await page.getByRole("button", { name: "Logout" }).click();
      await page.waitForURL("**/login");
      await page.goto("/dashboard");
      assert.equal(new URL(page.url()).pathname, "/login");
      // The login form forgets the stored user in an effect that runs just after hydration.
      await page.waitForFunction(() => localStorage.getItem("userLoggedIn") === null);
    });

    await t.step("the browser never contacted another host", () => {
      const origin = new URL(stack.consoleUrl).origin;
      const foreign = browser.requests.filter((url) => !url.startsWith(origin) && !url.startsWith("data:"));
      assert.deepEqual(foreign, []);
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: an unreachable storage server is reported on the sign-in page", async () => {
  const stack = await startStack({ storageUrl: "http://127.0.0.1:1" });
  const browser = await openBrowser(stack);
  try {
    browser.expectConsoleError(/status of 503/);
    await browser.page.goto("/login");
    await browser.page.getByText("An error has ocurred, the backend cannot be reached.").waitFor();
    await browser.page.getByRole("link", { name: "Retry" }).waitFor();
  } finally {
    await browser.close();
    await stack.close();
  }
});
