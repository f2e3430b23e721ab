/**
 * The License page in real Chromium: the AGPL v3 card and its full-text modal, the plan table with the
 * current plan and its links, then a licence activated on disk turning the header into the subscription.
 */
import assert from "node:assert/strict";
import { startStack } from "../helpers.ts";
import { createLicenseSigner, standardClaims } from "../license_fixture.ts";
import { openBrowser, scriptsBesidesShortcuts, signInThroughForm } from "./browser.ts";

Deno.test("browser: licence page, AGPL modal, plan table and a subscription", async (t) => {
  const signer = await createLicenseSigner();
  const stack = await startStack({ env: { CONSOLE_SUBNET_PUBLIC_KEY_FILE: signer.publicKeyFile } });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await t.step(
      "the menu's License entry leads to the AGPL v3 card, with no island script in console mode",
      async () => {
        await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
        await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "License" })
          .click();
        await page.waitForURL("**/license");
        await page.getByTestId("agpl-card").getByRole("heading", {
          name: "GNU Affero General Public License",
        }).waitFor();
        assert.match(await page.getByTestId("agpl-card").innerText(), /Version 3/);
        assert.deepEqual(await scriptsBesidesShortcuts(page), []);
        assert.equal(
          await page.getByRole("button", { name: "Activate" }).count(),
          0,
          "activation is operator-only",
        );
      },
    );

    await t.step("the full licence text opens in a modal and closes again", async () => {
      const modal = page.getByRole("dialog", { name: "GNU AGPL v3 license text" });
      assert.equal(await modal.isVisible(), false);
      await page.getByRole("button", { name: "Read the full licence" }).click();
      await modal.waitFor();
      const text = await page.getByTestId("agpl-text").innerText();
      assert.match(text, /^\s*GNU AFFERO GENERAL PUBLIC LICENSE\s+Version 3, 19 November 2007/);
      assert.match(text, /13\. Remote Network Interaction; Use with the GNU General Public License\./);
      assert.match(text, /END OF TERMS AND CONDITIONS/);
      await modal.getByRole("button", { name: "Close" }).click();
      await modal.waitFor({ state: "hidden" });
    });

    await t.step("the plan table highlights Community and links out with ref=con", async () => {
      const table = page.getByTestId("plan-table");
      assert.equal(await page.getByTestId("plan-Community").getAttribute("data-current"), "true");
      assert.match(await page.getByTestId("plan-Community").innerText(), /Current Plan/i);
      assert.match(
        await page.getByTestId("plan-Standard").innerText(),
        /\$10 per TB per month[\s\S]*Up to 10PB/,
      );
      assert.match(
        await page.getByTestId("plan-Enterprise").innerText(),
        /\$20 per TB per month[\s\S]*Up to 5PB/,
      );
      for (
        const row of [
          "Panic Button",
          "Indemnification",
          "Security and Policy Review",
          "Annual Architecture Review",
        ]
      ) {
        assert.ok(await table.getByRole("rowheader", { name: row }).isVisible(), row);
      }
      assert.equal(
        await table.getByRole("link", { name: "Join Slack" }).getAttribute("href"),
        "https://slack.min.io?ref=con",
      );
      const subscribe = table.getByRole("link", { name: "Subscribe" });
      assert.equal(await subscribe.count(), 2);
      assert.match((await subscribe.first().getAttribute("href"))!, /ref=con$/);
    });

    await t.step(
      "with a licence: the subscription header with a verified badge, Standard current and disabled",
      async () => {
        await Deno.mkdir(`${stack.dataDir}/.deck`, { recursive: true });
        await Deno.writeTextFile(
          `${stack.dataDir}/.deck/subnet-license`,
          await signer.sign(standardClaims({ cap: 2 })),
        );
        await page.reload();
        assert.equal(await page.getByTestId("license-organization").innerText(), "Example Corp");
        assert.equal(await page.getByTestId("license-capacity").innerText(), "2 TiB");
        assert.match(await page.getByTestId("license-expiry").innerText(), /^\d{4}-\d\d-\d\d$/);
        assert.equal(await page.getByTestId("license-plan").innerText(), "STANDARD");
        assert.equal(await page.getByTestId("license-requester").innerText(), "ops@example.com");
        assert.ok(await page.getByTestId("verified-badge").isVisible());
        assert.match(
          (await page.getByRole("link", { name: "Login to SUBNET" }).getAttribute("href"))!,
          /ref=con$/,
        );
        assert.equal(await page.getByTestId("plan-Standard").getAttribute("data-current"), "true");
        const table = page.getByTestId("plan-table");
        assert.equal(await table.getByRole("button", { name: "Subscribe" }).isDisabled(), true);
        assert.ok(
          await table.getByRole("link", { name: "Upgrade" }).isVisible(),
          "Enterprise offers an upgrade",
        );
      },
    );
  } finally {
    await browser.close();
    await stack.close();
    await signer.cleanup();
  }
});
