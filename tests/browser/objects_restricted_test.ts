/**
 * The object browser for users with narrow rights, in Chromium as those users: the usual read policy
 * (s3:ListBucket and s3:GetObject) browses folders and opens objects, with what it may not read shown as
 * unknown and no banner; a user with only s3:GetObject opens a known path; a refused listing says access is
 * denied instead of "empty".
 */
import assert from "node:assert/strict";
import { makeBucket, putBucketVersioning, putObject } from "../../server/lib/s3/mod.ts";
import { createUser, NARROW_POLICY, startStack } from "../helpers.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const KEY = "reports/Q1 отчёт +%#? 📈.txt";

const GET_ONLY = {
  name: "get-only",
  document: {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::shared/*"] }],
  },
};

const ELSEWHERE = {
  name: "elsewhere",
  document: {
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::not-here/*"] }],
  },
};

Deno.test("browser: narrow rights in the object browser", async (t) => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, "shared");
    await putBucketVersioning(stack.admin, "shared", { status: "Enabled" });
    await putObject(stack.admin, "shared", KEY, "revenue up", {
      contentType: "text/plain",
      userMetadata: { department: "finance" },
      tags: { team: "blue" },
    });
    await createUser(stack, "reader", "reader-secret-1", [NARROW_POLICY]);
    await createUser(stack, "getter", "getter-secret-1", [GET_ONLY]);
    await createUser(stack, "outsider", "outsider-secret-1", [ELSEWHERE]);

    await t.step(
      "the usual read policy: folders without a banner, objects with what it may read",
      async () => {
        const browser = await openBrowser(stack);
        const { page } = browser;
        try {
          await signInThroughForm(page, "reader", "reader-secret-1");
          await page.goto("/object-browser");
          await page.getByRole("link", { name: "shared" }).click();
          await page.locator('tr[data-row="reports/"]').getByRole("link").click();
          const row = page.locator(`tr[data-row="${KEY}"]`);
          await row.waitFor();
          assert.equal(await page.getByTestId("error-banner").count(), 0, "no 'Access denied: Versioning'");
          await row.getByRole("link").click();
          await page.getByRole("heading", { name: "Q1 отчёт +%#? 📈.txt" }).waitFor();
          const details = page.getByTestId("object-browser");
          assert.doesNotMatch(await details.innerText(), /cannot be shown/);
          assert.match(
            await page.getByRole("table", { name: "Object Metadata" }).innerText(),
            /department\s+finance/,
          );
          assert.equal(await page.getByTestId("legal-hold").innerText(), "Unknown");
          assert.equal(await page.getByTestId("tags").innerText(), "Unknown");
          assert.equal(await page.getByRole("button", { name: "+ Add tag" }).count(), 0);
          await assertAccessible(page, "an object page with unknown parts");
          const download = page.waitForEvent("download");
          await page.getByRole("button", { name: "Download" }).click();
          assert.equal(await Deno.readTextFile(await (await download).path()), "revenue up");
          // A fresh load renders the same page on the server.
          await page.reload();
          await page.getByTestId("legal-hold").getByText("Unknown").waitFor();
          assert.equal(await page.getByTestId("error-banner").count(), 0);
        } finally {
          await browser.close();
        }
      },
    );

    await t.step("s3:GetObject only: the folder says access is denied; a typed path opens", async () => {
      const browser = await openBrowser(stack);
      const { page } = browser;
      try {
        await signInThroughForm(page, "getter", "getter-secret-1");
        await page.goto("/object-browser/shared/reports/");
        assert.equal(
          await page.getByTestId("empty-message").innerText(),
          "You do not have permission to list the objects in this folder.",
        );
        await page.getByLabel("Path").fill(KEY);
        await page.getByRole("button", { name: "Go", exact: true }).click();
        await page.getByRole("heading", { name: "Q1 отчёт +%#? 📈.txt" }).waitFor();
        await page.getByRole("table", { name: "Object Metadata" }).waitFor();
        assert.doesNotMatch(await page.getByTestId("object-browser").innerText(), /cannot be shown/);
      } finally {
        await browser.close();
      }
    });

    await t.step(
      "no bucket in reach: both bucket lists say access is denied, not 'no buckets yet'",
      async () => {
        const browser = await openBrowser(stack);
        const { page } = browser;
        try {
          await signInThroughForm(page, "outsider", "outsider-secret-1");
          for (const path of ["/object-browser", "/buckets"]) {
            await page.goto(path);
            assert.equal(
              await page.getByTestId("empty-message").innerText(),
              "You do not have permission to list buckets.",
              path,
            );
          }
          // The same when the browser moves there in place, from a folder the user may not list.
          await page.goto("/object-browser/shared/");
          await page.getByTestId("error-banner").getByLabel("Close").click();
          await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", {
            name: "All Buckets",
          })
            .click();
          await page.getByTestId("empty-message").getByText("You do not have permission to list buckets.")
            .waitFor();
        } finally {
          await browser.close();
        }
      },
    );
  } finally {
    await stack.close();
  }
});
