/**
 * Single sign-on in Chromium against a real OpenID provider (oidc-provider, its own login and consent pages):
 * Login with SSO lands on the pages the token's policy claim allows, and each refusal is shown on the login
 * page saying which step failed (issue 27), in words that pass the accessibility checks in both themes.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { configureStorage, type SsoStack, startSsoStack } from "../oidc/deck_sso.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, waitForIslands } from "./browser.ts";

/** Clicks Login with SSO and signs in on the provider's own pages as `login`. */
async function signInAtProvider(page: Page, sso: SsoStack, login: string, consoleUrl: string) {
  await page.goto(`${consoleUrl}/login`);
  await page.getByRole("link", { name: "Login with SSO" }).click();
  await page.waitForURL((url) => url.origin === sso.provider.issuer);
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await page.waitForURL((url) => url.origin !== sso.provider.issuer);
  await waitForIslands(page);
}

async function refusal(page: Page): Promise<string> {
  await page.waitForURL("**/login?sso_error=*");
  const alert = page.getByTestId("login-error");
  await alert.waitFor();
  // The card stays usable after a refusal: no automatic loop back to the provider.
  await page.getByRole("link", { name: "Login with SSO" }).waitFor();
  return await alert.innerText();
}

Deno.test("browser: Login with SSO through oidc-provider's pages; refusals say why", async (t) => {
  const sso = await startSsoStack({ configureStorage: false });
  const browser = await openBrowser(sso.stack);
  const { page, context } = browser;
  const url = sso.stack.consoleUrl;
  // The provider's own pages import a web font from the internet and have no favicon; the test machine is
  // offline. Those two requests of the fixture's pages are answered empty here, so the guard against page
  // errors keeps watching everything of Deck's (Deck's pages load nothing from other origins).
  await context.route("https://fonts.googleapis.com/**", (route) => route.fulfill({ status: 200, body: "" }));
  await context.route(`${sso.provider.issuer}/favicon.ico`, (route) => route.fulfill({ status: 204 }));
  try {
    await t.step("the storage refusing the token is shown with its message", async () => {
      await signInAtProvider(page, sso, "reader", url);
      assert.match(await refusal(page), /storage server refused its token: .*not configured/);
    });

    await configureStorage(sso.stack, sso.provider);

    await t.step("a readonly user lands on the pages readonly allows", async () => {
      await context.clearCookies();
      await signInAtProvider(page, sso, "reader", url);
      await page.waitForURL("**/object-browser");
      const menu = page.getByRole("complementary");
      await menu.getByRole("link", { name: "Object Browser" }).waitFor();
      assert.equal(await menu.getByRole("link", { name: "Users" }).count(), 0, "no IAM pages");
      assert.equal(await menu.getByRole("link", { name: "Buckets" }).count(), 0, "no bucket administration");
    });

    await t.step("a consoleAdmin claim gives the administration pages", async () => {
      await context.clearCookies();
      await signInAtProvider(page, sso, "admin", url);
      const menu = page.getByRole("complementary");
      await menu.getByRole("link", { name: "Users" }).waitFor();
      await menu.getByRole("link", { name: "Buckets" }).waitFor();
    });

    await t.step("a token without the policy claim: the claim is named", async () => {
      await context.clearCookies();
      await signInAtProvider(page, sso, "no-claim", url);
      assert.match(await refusal(page), /its token has no 'policy' claim/);
      for (const theme of ["light", "dark"]) {
        await context.addCookies([{ name: "theme", value: theme, url }]);
        await page.reload();
        await page.getByTestId("login-error").waitFor();
        await assertAccessible(page, `SSO refusal, ${theme}`);
      }
      await context.clearCookies();
    });

    await t.step("a claim naming no existing policy: the names are shown", async () => {
      await context.clearCookies();
      await signInAtProvider(page, sso, "stranger", url);
      assert.match(
        await refusal(page),
        /names no policy that exists on the storage server \(no-such-policy\)/,
      );
    });

    await t.step("the provider's error: 'IDP Error:' with both texts, and a way back", async () => {
      await context.clearCookies();
      await page.goto(`${url}/login`);
      await page.getByRole("link", { name: "Login with SSO" }).click();
      await page.waitForURL((u) => u.origin === sso.provider.issuer);
      // The callback answers 400 with the error page: Chromium reports the status on the console.
      browser.expectConsoleError(/status of 400/);
      await page.getByRole("link", { name: "[ Cancel ]" }).click();
      await page.getByText("IDP Error:").waitFor();
      await page.getByText("access_denied").waitFor();
      await page.getByText("End-User aborted interaction").waitFor();
      await page.getByRole("link", { name: "Back to login" }).click();
      assert.match(await refusal(page), /identity provider refused the sign-in: access_denied/);
    });

    await t.step(
      "the console opened at another address than CONSOLE_IDP_CALLBACK: said before leaving",
      async () => {
        await context.clearCookies();
        const other = url.replace("127.0.0.1", "localhost");
        await signInAtProviderStart(page, other);
        assert.match(
          await refusal(page),
          /CONSOLE_IDP_CALLBACK is http:\/\/127\.0\.0\.1:\d+\/oauth_callback, but this console/,
        );
      },
    );

    await t.step("the access-key form stays one link away", async () => {
      await context.clearCookies();
      await page.goto(`${url}/login`);
      await page.getByRole("link", { name: "Sign in with an access key instead" }).click();
      await page.getByPlaceholder("Enter Username").waitFor();
    });
  } finally {
    await browser.close().finally(() => sso.close());
  }
});

async function signInAtProviderStart(page: Page, consoleUrl: string) {
  await page.goto(`${consoleUrl}/login`);
  await page.getByRole("link", { name: "Login with SSO" }).click();
}
