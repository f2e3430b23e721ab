/**
 * The error banners (spec 1 §2) when a page meets more than one failure: each is shown, one under the other,
 * above the page's content, so neither hides the other and the breadcrumb and title stay readable.
 */
import assert from "node:assert/strict";
import type { Locator, Page } from "playwright-core";
import { addCannedPolicy, removeCannedPolicy } from "../../server/lib/s3/admin/iam.ts";
import { makeBucket } from "../../server/lib/s3/mod.ts";
import { createUser, startStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

/** Whether the element is what the user sees at its own centre (nothing drawn over it). */
async function isUncovered(page: Page, element: Locator): Promise<boolean> {
  const box = (await element.boundingBox())!;
  return await page.evaluate(
    ({ x, y, target }) => {
      const top = document.elementFromPoint(x, y);
      const wanted = [...document.querySelectorAll("*")].find((e) => e.getAttribute("data-probe") === target);
      return !!top && !!wanted && (wanted === top || wanted.contains(top));
    },
    { x: box.x + box.width / 2, y: box.y + box.height / 2, target: await mark(element) },
  );
}

let probes = 0;
async function mark(element: Locator): Promise<string> {
  const id = `probe-${++probes}`;
  await element.evaluate((e, id) => e.setAttribute("data-probe", id), id);
  return id;
}

const READ_ONLY = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::*"] }],
});

Deno.test("browser: two failures on one page show two banners above the content", async () => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    for (const name of ["reports-read", "archive+2024"]) await addCannedPolicy(stack.admin, name, READ_ONLY);
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/policies");
    // Both go elsewhere while the list is open; each Info Policy then fails with its own message.
    for (const name of ["reports-read", "archive+2024"]) await removeCannedPolicy(stack.admin, name);
    for (const name of ["reports-read", "archive+2024"]) {
      browser.expectConsoleError(/status of 404/);
      await page.getByRole("button", { name: `description ${name}` }).click();
      await page.getByTestId("error-banner").filter({ hasText: name }).waitFor();
    }
    const banners = page.getByTestId("error-banner");
    assert.equal(await banners.count(), 2);
    const [first, second] = [banners.nth(0), banners.nth(1)];
    assert.match(
      await first.textContent() ?? "",
      /Not found[\s\S]*The canned policy reports-read does not exist/,
    );
    assert.match(await second.textContent() ?? "", /The canned policy archive\+2024 does not exist/);
    const [a, b] = [(await first.boundingBox())!, (await second.boundingBox())!];
    assert.ok(a.y + a.height <= b.y, "the second stands under the first");
    for (const banner of [first, second]) {
      assert.ok(await isUncovered(page, banner), "each banner is seen whole");
    }
    assert.ok(
      await isUncovered(page, page.getByRole("heading", { name: "IAM Policies" })),
      "the title is read",
    );
    assert.ok(
      await isUncovered(page, page.getByRole("button", { name: "Create Policy" })),
      "the controls under the title stay usable",
    );

    await first.getByRole("button", { name: "Close" }).click();
    await page.waitForFunction(() => document.querySelectorAll("[data-testid=error-banner]").length === 1);
    assert.match(await banners.textContent() ?? "", /archive\+2024/, "closing one leaves the other");
  } finally {
    await browser.close().finally(() => stack.close());
  }
});

Deno.test("browser: a banner rendered with the page stands above the header and leaves no gap once it hides", async () => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "shared");
    await createUser(stack, "auditor", "auditor-secret-1", [{
      name: "shared-without-versioning",
      document: {
        Version: "2012-10-17",
        Statement: [
          { Effect: "Allow", Action: ["s3:*"], Resource: ["arn:aws:s3:::shared", "arn:aws:s3:::shared/*"] },
          { Effect: "Deny", Action: ["s3:GetBucketVersioning"], Resource: ["arn:aws:s3:::shared"] },
        ],
      },
    }]);
    await signInThroughForm(page, "auditor", "auditor-secret-1");
    await page.goto("/buckets/shared/summary");
    const banner = page.getByTestId("error-banner");
    assert.match(await banner.innerText(), /Access denied: Versioning/);
    const title = page.getByRole("heading", { name: "shared" });
    assert.ok(await isUncovered(page, title), "the title is read beside the banner");
    const below = (await title.boundingBox())!.y;
    // The banner's 10 s run, ended at once: it hides and the page closes up.
    await banner.evaluate((e) => e.getAnimations().forEach((a) => a.finish()));
    await banner.waitFor({ state: "hidden" });
    assert.ok((await title.boundingBox())!.y < below, "the content moves up into the banner's place");
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
