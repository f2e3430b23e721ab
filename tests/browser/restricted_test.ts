/**
 * A user with narrow rights sees "Access denied" where a read is denied, never "Disabled", "There are no …
 * yet" or "does not exist", and the page's banner is capitalised and names the sections that failed.
 */
import assert from "node:assert/strict";
import { makeBucket } from "../../server/lib/s3/mod.ts";
import { createUser, startStack } from "../helpers.ts";
import { assertAccessible } from "./a11y.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const AUDITOR_POLICY = {
  name: "shared-without-versioning-and-events",
  document: {
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Action: ["s3:*"], Resource: ["arn:aws:s3:::shared", "arn:aws:s3:::shared/*"] },
      {
        Effect: "Deny",
        Action: ["s3:GetBucketVersioning", "s3:GetBucketNotification"],
        Resource: ["arn:aws:s3:::shared"],
      },
    ],
  },
};

Deno.test("browser: a restricted user is told where access is denied", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "shared");
    await makeBucket(stack.admin, "private-stuff");
    await createUser(stack, "auditor", "auditor-secret-1", [AUDITOR_POLICY]);
    await signInThroughForm(page, "auditor", "auditor-secret-1");
    const banner = page.getByTestId("error-banner");

    await t.step("summary: denied sections say so, and the banner names them", async () => {
      await page.goto("/buckets/shared/summary");
      assert.equal(await page.getByTestId("summary-versioning").innerText(), "Versioning\nAccess denied");
      assert.equal(
        await page.getByTestId("summary-quota").innerText(),
        "Quota\nAccess denied",
        "quotas need admin rights",
      );
      assert.match(
        await page.getByTestId("summary-encryption").innerText(),
        /Disabled/,
        "what may be read still shows",
      );
      assert.match(await banner.innerText(), /^Error\nAccess denied: Versioning, Quota\n/);
      await assertAccessible(page, "summary with a banner and denied sections");
    });

    await t.step("events: the denied list says Access denied, not 'no events yet'", async () => {
      await page.goto("/buckets/shared/events");
      assert.equal(await page.getByTestId("empty-message").innerText(), "Access denied");
      assert.match(await banner.innerText(), /Access denied: Events, Notification Targets/);
    });

    await t.step("access audit: policies need admin rights", async () => {
      await page.goto("/buckets/shared/access");
      assert.equal(await page.getByTestId("empty-message").innerText(), "Access denied");
      assert.match(await banner.innerText(), /Access denied: Policies/);
    });

    await t.step("a bucket outside the user's rights is denied, not missing", async () => {
      for (const bucket of ["private-stuff", "no-such-bucket"]) {
        // The storage does not tell a user whether a bucket outside its rights exists (S3 answers 403 to both).
        browser.expectConsoleError(/status of 403/);
        const res = await page.goto(`/buckets/${bucket}/summary`);
        assert.equal(res?.status(), 403);
        assert.equal(
          await page.getByTestId("unavailable").innerText(),
          `You do not have access to bucket ${bucket}.`,
        );
        assert.match(await banner.innerText(), /Access denied: Bucket/);
      }
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});
