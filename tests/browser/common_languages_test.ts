/**
 * Languages (issue 29), the shared parts: the sign-in page offers the language switch and shows itself in the
 * language chosen there (German, Chinese), the error page ('404 Not Found') follows the `lang` cookie, and the
 * sidebar's switch changes the language of the signed-in pages, a choice that survives a reload.
 */
import assert from "node:assert/strict";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { assertInLanguage } from "./languages.ts";

Deno.test("browser: the sign-in page, the error page and the sidebar's switch in German and Chinese", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  const lang = () => page.evaluate(() => document.documentElement.lang);
  try {
    await t.step("the sign-in card's switch shows the sign-in page in German, then in Chinese", async () => {
      await page.goto("/login");
      const switcher = page.getByRole("form", { name: "Language" });
      await switcher.getByRole("button", { name: "Deutsch" }).click();
      await page.getByRole("heading", { name: "Konsolenanmeldung" }).waitFor();
      assert.equal(await lang(), "de");
      assert.ok(await page.getByRole("button", { name: "Anmelden", exact: true }).isDisabled());
      await page.getByPlaceholder("Benutzernamen eingeben").waitFor();
      await assertInLanguage(page, "de", "/login");
      await page.getByRole("form", { name: "Sprache" }).getByRole("button", { name: "简体中文" }).click();
      await page.getByRole("heading", { name: "控制台登录" }).waitFor();
      assert.equal(await lang(), "zh-Hans");
      await page.getByPlaceholder("请输入密码").waitFor();
      await assertInLanguage(page, "zh-Hans", "/login");
    });

    await t.step("a wrong password is refused in the page's language", async () => {
      await page.getByPlaceholder("请输入用户名").fill(stack.storage.root.accessKey);
      await page.getByPlaceholder("请输入密码").fill("not-the-password");
      browser.expectConsoleError(/status of (401|403)/);
      await page.getByRole("button", { name: "登录", exact: true }).click();
      const banner = page.getByTestId("error-banner");
      await banner.waitFor();
      assert.match(await banner.innerText(), /错误/);
      await assertInLanguage(page, "zh-Hans", "/login (refused)");
    });

    await t.step("the error page in German and Chinese", async () => {
      const pages = [["de", "404 Nicht gefunden", "Zur Konsole"], [
        "zh-Hans",
        "404 未找到",
        "前往控制台",
      ]] as const;
      for (const [locale, heading, back] of pages) {
        await page.context().addCookies([{ name: "lang", value: locale, url: stack.consoleUrl }]);
        browser.expectConsoleError(/status of 404/);
        // A share link without its signature: the public 404 page.
        const res = await page.goto("/shared/no-such-link");
        assert.equal(res?.status(), 404);
        await page.getByRole("heading", { name: heading }).waitFor();
        await page.getByRole("link", { name: back }).waitFor();
        await assertInLanguage(page, locale, "404 page");
      }
    });

    await t.step("the sidebar's switch changes the language, and the choice survives a reload", async () => {
      await page.context().clearCookies();
      await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
      const sidebar = page.getByRole("complementary");
      assert.equal(await lang(), "en");
      await sidebar.getByRole("form", { name: "Language" }).getByRole("button", { name: "Deutsch" }).click();
      await sidebar.getByRole("button", { name: "Abmelden" }).waitFor();
      assert.equal(await lang(), "de");
      await page.reload();
      assert.equal(await lang(), "de");
      const german = sidebar.getByRole("form", { name: "Sprache" }).getByRole("button", { name: "Deutsch" });
      assert.equal(await german.getAttribute("aria-pressed"), "true");
      await sidebar.getByRole("form", { name: "Sprache" }).getByRole("button", { name: "简体中文" }).click();
      await sidebar.getByRole("button", { name: "退出登录" }).waitFor();
      await page.reload();
      assert.equal(await lang(), "zh-Hans");
      await sidebar.getByRole("form", { name: "语言" }).getByRole("button", { name: "English" }).click();
      await sidebar.getByRole("button", { name: "Logout" }).waitFor();
      assert.equal(await lang(), "en");
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});
