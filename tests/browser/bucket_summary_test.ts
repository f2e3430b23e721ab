/**
 * The bucket Summary has one data path: what the page renders on the server and what the island shows after
 * reloading it (after every change) are the same cards with the same words, also for a user with narrow
 * rights; a read denied after the page loaded is news, said in its card and in the banner, while a card that
 * already said "Access denied" raises no banner after a save (which would read as if the save had failed).
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { addCannedPolicy, makeBucket } from "../../server/lib/s3/mod.ts";
import { createUser, startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const POLICY = "shared-without-versioning";
const policyDenying = (actions: string[]) => ({
  Version: "2012-10-17",
  Statement: [
    { Effect: "Allow", Action: ["s3:*"], Resource: ["arn:aws:s3:::shared", "arn:aws:s3:::shared/*"] },
    { Effect: "Deny", Action: actions, Resource: ["arn:aws:s3:::shared"] },
  ],
});

/** Each Summary card as the user reads it, once no card is loading any more. */
async function cardTexts(page: Page): Promise<string[]> {
  await page.locator("[data-testid^='summary-'] [role='status']").first().waitFor({ state: "detached" });
  return await page.locator("[data-testid^='summary-']").evaluateAll((cards) =>
    cards.map((card) => `${card.getAttribute("data-testid")}: ${(card as HTMLElement).innerText}`)
  );
}

/** Changes the bucket's access policy through the Summary's own dialog, as a user does. */
async function changeAccess(page: Page, from: string, to: "PRIVATE" | "PUBLIC", shown: string) {
  await page.getByTestId("summary-access").getByRole("button", { name: from }).click();
  const dialog = page.getByRole("dialog", { name: "Change Access Policy" });
  await dialog.getByLabel("Access Policy").selectOption(to);
  await dialog.getByRole("button", { name: "Save" }).click();
  await page.getByTestId("summary-access").getByRole("button", { name: shown }).waitFor();
}

/** The error banners in view. */
const bannersShown = (page: Page) => page.locator("[data-testid='error-banner']:visible");

/** Closes the banners in view, as a user does, so a banner seen afterwards is a new one. */
async function dismissBanners(page: Page) {
  for (const banner of await bannersShown(page).all()) await banner.getByLabel("Close").click();
  await bannersShown(page).first().waitFor({ state: "detached" });
}

Deno.test("browser: a restricted user's bucket Summary reads the same rendered and reloaded", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "shared", { objectLock: true });
    await createUser(stack, "auditor", "auditor-secret-1", [
      { name: POLICY, document: policyDenying(["s3:GetBucketVersioning"]) },
    ]);
    await signInThroughForm(page, "auditor", "auditor-secret-1");
    const banner = bannersShown(page);

    await t.step("after a save, the reloaded cards say what the page said, with no banner", async () => {
      await page.goto("/buckets/shared/summary");
      const rendered = await cardTexts(page);
      assert.deepEqual(rendered, [
        "summary-access: Access Policy\nPrivate",
        "summary-encryption: Encryption\nDisabled",
        "summary-usage: Reported Usage\n0 B",
        "summary-replication: Replication\nDisabled",
        "summary-locking: Object Locking\nEnabled",
        "summary-versioning: Versioning\nAccess denied",
        "summary-quota: Quota\nAccess denied",
        "summary-retention: Retention\nStatus: Disabled",
      ]);
      assert.match(await banner.innerText(), /^Error\nAccess denied: Versioning, Quota\n/);
      await dismissBanners(page);

      await changeAccess(page, "Private", "PUBLIC", "Public");
      const reloaded = await cardTexts(page);
      assert.deepEqual(reloaded, [
        "summary-access: Access Policy\nPublic",
        ...rendered.slice(1),
      ]);
      assert.equal(await banner.count(), 0, "cards that already said 'Access denied' are no news");
      await page.getByText("Access: Public").waitFor();

      await page.reload();
      assert.deepEqual(await cardTexts(page), reloaded, "the page rendered anew says what the island said");
      await dismissBanners(page);
    });

    await t.step("a read denied since the page loaded shows in its card and in the banner", async () => {
      await addCannedPolicy(
        stack.admin,
        POLICY,
        JSON.stringify(policyDenying(["s3:GetBucketVersioning", "s3:GetEncryptionConfiguration"])),
      );
      await changeAccess(page, "Public", "PRIVATE", "Private");
      const reloaded = await cardTexts(page);
      assert.equal(reloaded[1], "summary-encryption: Encryption\nAccess denied");
      assert.match(await banner.innerText(), /^Error\nAccess denied: Encryption\n/);
      await dismissBanners(page);

      await page.reload();
      assert.deepEqual(await cardTexts(page), reloaded);
      assert.match(await banner.innerText(), /^Error\nAccess denied: Encryption, Versioning, Quota\n/);
    });
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
