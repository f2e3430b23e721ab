/**
 * Browser tests of the object page (issue 12): tags, legal hold, the retention modal's rules, a held version
 * refused on delete with the storage's message, share links with the spec's expiry rules that are listed
 * and stop working when revoked, the large-download notice and the slow-operation hints.
 */
import assert from "node:assert/strict";
import { makeBucket, putObject, putObjectLockConfig } from "../../server/lib/s3/mod.ts";
import { formatDateTime } from "../../islands/lib/format.ts";
import { startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

/** yyyy-mm-dd of a day `days` from today, in the browser's (and this process's) time zone. */
function day(days: number): string {
  const d = new Date(Date.now() + days * 86400000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${
    String(d.getDate()).padStart(2, "0")
  }`;
}

Deno.test("browser: the object page — tags, legal hold, retention, share links", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: stack.consoleUrl });
  try {
    await makeBucket(stack.admin, "plain");
    await putObject(stack.admin, "plain", "report.txt", "quarterly numbers", {
      contentType: "text/plain",
      userMetadata: { department: "finance" },
    });
    await makeBucket(stack.admin, "vault", { objectLock: true });
    await putObjectLockConfig(stack.admin, "vault", { enabled: true });
    await putObject(stack.admin, "vault", "contract.pdf", "signed");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step(
      "details: metadata table, legal hold disabled without versioning (with the reason), tags added and deleted",
      async () => {
        await page.goto("/object-browser/plain/report.txt");
        assert.match(
          await page.getByRole("table", { name: "Object Metadata" }).innerText(),
          /department\s+finance/,
        );
        assert.equal(await page.getByTestId("legal-hold").innerText(), "Disabled");
        assert.equal(
          await page.getByTestId("legal-hold").locator("[data-tip]").getAttribute("data-tip"),
          "Legal hold requires versioning on the bucket",
        );
        await page.getByRole("button", { name: "+ Add tag" }).click();
        const dialog = page.getByRole("dialog", { name: "Add New Tag" });
        const save = dialog.getByRole("button", { name: "Save" });
        await dialog.getByLabel("Tag Key").fill("team");
        await dialog.getByLabel("Tag Label").fill("   ");
        assert.equal(await save.isDisabled(), true, "a blank value after trimming");
        await dialog.getByLabel("Tag Label").fill("blue");
        await save.click();
        await page.getByTestId("tags").getByText("team : blue").waitFor();
        await page.getByRole("button", { name: "Delete tag team" }).click();
        await page.getByRole("dialog", { name: "Delete Tag" }).getByRole("button", { name: "Delete" })
          .click();
        await page.getByTestId("tags").getByText("team : blue").waitFor({ state: "detached" });
      },
    );

    await t.step("legal hold on a versioned, locked bucket; the held version cannot be deleted", async () => {
      await page.goto("/object-browser/vault/contract.pdf");
      await page.getByRole("button", { name: "Edit Legal Hold" }).click();
      let dialog = page.getByRole("dialog", { name: "Set Legal Hold" });
      await dialog.getByLabel("Legal Hold Status").check();
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByTestId("legal-hold").getByText("On").waitFor();
      await page.getByRole("tab", { name: "Versions" }).click();
      await page.getByRole("table", { name: "versions" }).getByRole("button", { name: /^view/ }).click();
      await page.getByText(/^Version [0-9a-f-]{36}$/).waitFor();
      browser.expectConsoleError(/status of 403/);
      await page.getByRole("button", { name: "Delete Object" }).click();
      dialog = page.getByRole("dialog", { name: "Delete Object" });
      await dialog.getByRole("button", { name: "Delete" }).click();
      await dialog.getByTestId("dialog-message").filter({ hasText: /WORM protected/ }).waitFor();
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await page.goto("/object-browser/vault/");
      await page.locator('tr[data-row="contract.pdf"]').waitFor();
    });

    await t.step("the retention modal's rules, saved at the end of the day, then removed", async () => {
      await page.goto("/object-browser/vault/contract.pdf");
      assert.equal(await page.getByTestId("retention").innerText(), "Undefined");
      await page.getByRole("button", { name: "Edit Retention" }).click();
      const dialog = page.getByRole("dialog", { name: "Set Retention Policy" });
      const save = dialog.getByRole("button", { name: "Save" });
      const date = dialog.getByLabel("Retention date");
      assert.equal(await dialog.getByLabel("Status").isVisible(), true, "the switch shows with no mode yet");
      assert.equal(await date.isDisabled(), true, "no type chosen yet");
      assert.equal(await save.isDisabled(), true);
      await dialog.getByLabel("Governance").check();
      assert.equal(await date.isDisabled(), false);
      assert.equal(await save.isDisabled(), true, "no date yet");
      await date.fill(day(3));
      await dialog.getByRole("button", { name: "Reset" }).click();
      assert.equal(await dialog.getByLabel("Governance").isChecked(), false, "Reset clears the type");
      assert.equal(await date.inputValue(), "", "…and the date");
      await dialog.getByLabel("Governance").check();
      await date.fill(day(3));
      await save.click();
      await page.getByTestId("retention").getByText(/^Governance until/).waitFor();
      const detail = await (await page.request.get(
        `${stack.consoleUrl}/api/v1/buckets/vault/objects/detail?prefix=contract.pdf`,
      )).json();
      assert.equal(detail.retention_until_date.slice(0, 19), `${day(3)}T23:59:59`, "end of day, UTC");
      await page.getByRole("button", { name: "Edit Retention" }).click();
      assert.equal(await dialog.getByLabel("Compliance").isDisabled(), true, "the type is locked once set");
      await dialog.getByLabel("Status").uncheck();
      assert.equal(await dialog.getByLabel("Retention date").isDisabled(), true);
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByTestId("retention").getByText("Undefined").waitFor();
    });

    await t.step("share: spec messages for bad dates, copy, the Shared Links list and revoke", async () => {
      await page.goto("/object-browser/plain/report.txt");
      await page.getByRole("button", { name: "Share", exact: true }).click();
      const dialog = page.getByRole("dialog", { name: "Share File" });
      const url = dialog.getByLabel("Share URL");
      await page.waitForFunction(() =>
        (document.querySelector('input[aria-label="Share URL"]') as HTMLInputElement)?.value.startsWith(
          "http",
        )
      );
      await dialog.getByLabel("Set Expiry Date").check();
      await dialog.getByLabel("Expires").fill(day(-1));
      await dialog.getByTestId("dialog-message").filter({
        hasText: "Selected date must be greater than current time.",
      }).waitFor();
      assert.equal(await url.inputValue(), "", "no link for a past date");
      await dialog.getByLabel("Expires").fill(day(10));
      await dialog.getByTestId("dialog-message").filter({
        hasText: "You can share a file only for less than 7 days.",
      }).waitFor();
      assert.equal(await url.inputValue(), "");
      await dialog.getByLabel("Expires").fill(day(2));
      await page.waitForFunction(() =>
        (document.querySelector('input[aria-label="Share URL"]') as HTMLInputElement)?.value.startsWith(
          "http",
        )
      );
      const link = await url.inputValue();
      assert.ok(link.startsWith(`${stack.consoleUrl}/shared/plain/report.txt?`), link);
      await dialog.getByRole("button", { name: "Copy" }).click();
      await page.getByText("Share URL Copied to clipboard").waitFor();
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
      assert.equal(await (await fetch(link)).text(), "quarterly numbers");
      await dialog.getByRole("button", { name: "Close" }).click();

      await page.getByRole("button", { name: "Shared Links" }).click();
      const links = page.getByRole("dialog", { name: "Shared Links" });
      const rows = links.locator("tr[data-link]");
      await rows.first().waitFor();
      assert.equal(await rows.count(), 1, "links replaced while choosing the date were revoked");
      const expected = formatDateTime(new Date(`${day(2)}T23:59:59`));
      assert.match(
        await rows.first().innerText(),
        new RegExp(
          `plain/report\\.txt[\\s\\S]*${expected.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}[\\s\\S]*Console`,
        ),
      );
      await rows.first().getByRole("button", { name: "Revoke" }).click();
      await page.getByRole("dialog", { name: "Revoke Link" }).getByRole("button", { name: "Revoke" }).click();
      await links.getByTestId("no-links").waitFor();
      const revoked = await fetch(link);
      await revoked.body?.cancel();
      assert.equal(revoked.status, 403, "the link stopped working at once");
    });

    await t.step("downloads over 100 MiB get the spec's notice", async () => {
      await putObject(stack.admin, "plain", "huge.bin", new Uint8Array(104857601));
      await page.goto("/object-browser/plain/");
      const pending = page.waitForEvent("download");
      await page.locator('tr[data-row="huge.bin"]').getByRole("button", { name: "download huge.bin" })
        .click();
      await page.getByText("Download process started, it may take a few moments to complete").waitFor();
      await (await pending).cancel();
    });

    await t.step("slow operations say so at 3 s and again with the seconds at 6 s", async () => {
      await page.clock.install();
      await page.goto("/object-browser/plain/");
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        /\/api\/v1\/buckets\/plain\/objects\?/,
        async (route) => (await held, await route.continue()),
      );
      await page.getByRole("link", { name: "All Buckets" }).click();
      await page.getByRole("link", { name: "plain" }).click();
      const hint = page.getByTestId("slow-hint");
      await hint.getByText("Loading...").waitFor();
      await page.clock.runFor(3000);
      await hint.getByText("This operation is taking longer than expected...", { exact: true }).waitFor();
      await page.clock.runFor(3000);
      await hint.getByText("This operation is taking longer than expected... (6s)").waitFor();
      release();
      await page.locator('tr[data-row="report.txt"]').waitFor();
      await page.unrouteAll({ behavior: "ignoreErrors" });
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});
