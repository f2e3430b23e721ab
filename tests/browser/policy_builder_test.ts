/**
 * The visual policy builder (issue 29) in Chromium against the real console and embedded storage: a policy
 * built by clicking and typing equals the JSON expected and is enforced as built; JSON edits show in the
 * builder and builder edits in the JSON; parts the builder cannot show are named and kept; a statement's
 * "What does this allow?" opens the Access Check; MinIO's canned policies go through the builder unchanged.
 */
import assert from "node:assert/strict";
import { DeleteObjectCommand, PutObjectCommand, S3Client as SdkClient } from "@aws-sdk/client-s3";
import type { Locator, Page } from "playwright-core";
import { addCannedPolicy, addUser, infoCannedPolicy, setPolicy } from "../../server/lib/s3/admin/iam.ts";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { startStack } from "../helpers.ts";
import { MINIO_CANNED_POLICIES } from "../minio_canned_policies.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

const FOLDER = "2026 Отчёты #1/";
const NAME = "photo-team-📷";

const EXPECTED = {
  Version: "2012-10-17",
  Statement: [
    {
      Effect: "Allow",
      Action: ["s3:GetObject", "s3:PutObject"],
      Resource: [`arn:aws:s3:::photos/${FOLDER}*`],
    },
    {
      Effect: "Allow",
      Action: ["s3:ListBucket"],
      Resource: ["arn:aws:s3:::photos"],
      Condition: { StringLike: { "s3:prefix": [`${FOLDER}*`] } },
    },
    { Effect: "Deny", Action: ["s3:DeleteObject"], Resource: ["arn:aws:s3:::photos/*"] },
  ],
};

const statementOf = (scope: Page | Locator, n: number) =>
  scope.getByTestId("policy-builder").getByRole("region", { name: `Statement ${n}`, exact: true });

/** Ticks an action the way a person finds it: typing part of its name in the statement's search. */
async function chooseAction(statement: Locator, search: string, action: string): Promise<void> {
  await statement.getByLabel("Search actions").fill(search);
  await statement.getByRole("checkbox", { name: action, exact: true }).check();
  await statement.getByLabel("Search actions").fill("");
}

async function addResource(statement: Locator, bucket: string, covers: string, path?: string) {
  await statement.getByLabel("Bucket", { exact: true }).fill(bucket);
  await statement.getByLabel("Covers").selectOption({ label: covers });
  if (path !== undefined) await statement.getByLabel("Prefix", { exact: true }).fill(path);
  await statement.getByRole("button", { name: "Add resource" }).click();
}

const jsonOf = async (editor: Locator) => JSON.parse(await editor.inputValue());

Deno.test("browser: a policy built by clicking and typing is the JSON expected, saved and enforced", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await makeBucket(stack.admin, "photos");
    await putObject(stack.admin, "photos", `${FOLDER}cover.jpg`, "jpg");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/policies");
    await page.getByRole("button", { name: "Create Policy" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Policy" });
    const editor = dialog.getByLabel("Write Policy");

    await t.step("three statements built in the builder give the JSON expected", async () => {
      await dialog.getByLabel("Policy Name").fill(NAME);
      const first = statementOf(dialog, 1);
      await first.getByRole("button", { name: "Remove arn:aws:s3:::bucket/*" }).click();
      await chooseAction(first, "putobj", "s3:PutObject");
      await addResource(first, "photos", "Objects under a prefix", FOLDER);
      assert.equal(
        await first.getByRole("list", { name: "Chosen resources" }).innerText(),
        `arn:aws:s3:::photos/${FOLDER}*\nobjects under ${FOLDER} in bucket photos\n✕`,
      );

      await dialog.getByRole("button", { name: "Add statement" }).click();
      const second = statementOf(dialog, 2);
      await chooseAction(second, "ListBucket", "s3:ListBucket");
      await addResource(second, "photos", "The bucket itself (listing, settings)");
      await second.getByRole("button", { name: "Add condition" }).click();
      await second.getByLabel("Condition 1 operator").selectOption("StringLike");
      await second.getByLabel("Condition 1 key").fill("s3:prefix");
      await second.getByLabel("Condition 1 value").fill(`${FOLDER}*`);
      await second.getByLabel("Condition 1 value").press("Enter");

      await dialog.getByRole("button", { name: "Add statement" }).click();
      const third = statementOf(dialog, 3);
      await third.getByLabel("Effect").selectOption("Deny");
      // A pattern typed in the search is offered with what it covers; Enter on the one match ticks it.
      await third.getByLabel("Search actions").fill("s3:DeleteObj*");
      await third.getByRole("button", { name: /^Add s3:DeleteObj\* \(covers \d+ actions\)$/ }).waitFor();
      await third.getByLabel("Search actions").fill("s3:DeleteObject");
      await third.getByRole("checkbox", { name: "s3:DeleteObject", exact: true }).check();
      await addResource(third, "photos", "Every object in it");

      assert.deepEqual(await jsonOf(editor), EXPECTED);
      assert.equal(await dialog.getByTestId("json-problems").count(), 0, "the validator finds nothing");
    });

    await t.step("an edit typed in the JSON shows in the builder, and back", async () => {
      const typed = structuredClone(EXPECTED);
      typed.Statement[2].Action.push("s3:DeleteObjectVersion");
      await editor.fill(JSON.stringify(typed, null, 2));
      const third = statementOf(dialog, 3);
      await third.getByRole("button", { name: "Remove s3:DeleteObjectVersion" }).click();
      assert.deepEqual(await jsonOf(editor), EXPECTED);
    });

    await t.step(
      "a part the builder cannot show is named, kept, and checked by the same validator",
      async () => {
        const withPrincipal = structuredClone(EXPECTED) as { Statement: Record<string, unknown>[] };
        withPrincipal.Statement[0] = { Principal: "*", ...withPrincipal.Statement[0] };
        await editor.fill(JSON.stringify(withPrincipal, null, 2));
        const hidden = dialog.getByTestId("builder-hidden");
        assert.match(await hidden.innerText(), /Statement 1: Principal/);
        assert.match(
          await statementOf(dialog, 1).getByTestId("statement-problems").innerText(),
          /Principal is only allowed in bucket policies/,
        );
        assert.match(await dialog.getByTestId("json-problems").innerText(), /Principal is only allowed/);
        assert.equal(await dialog.getByRole("button", { name: "Save" }).isDisabled(), true);
        // An edit in the builder keeps the part it cannot show as written.
        await statementOf(dialog, 1).getByLabel("Statement ID (optional)").fill("team");
        const kept = await jsonOf(editor);
        assert.equal(kept.Statement[0].Principal, "*");
        assert.equal(kept.Statement[0].Sid, "team");
        await editor.fill(JSON.stringify(EXPECTED, null, 2));
        await hidden.waitFor({ state: "detached" });
      },
    );

    await t.step("saved, the stored policy is the one built", async () => {
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.waitForURL((url) => decodeURIComponent(url.pathname) === `/policies/${NAME}`);
      assert.deepEqual(JSON.parse(await infoCannedPolicy(stack.admin, NAME)), EXPECTED);
    });

    await t.step("the storage enforces it as built (AWS SDK as the user)", async () => {
      await addUser(stack.admin, "photographer", "photographer-secret");
      await setPolicy(stack.admin, [NAME], "photographer", false);
      const sdk = new SdkClient({
        endpoint: stack.storage.url,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: { accessKeyId: "photographer", secretAccessKey: "photographer-secret" },
      });
      await sdk.send(new PutObjectCommand({ Bucket: "photos", Key: `${FOLDER}new.jpg`, Body: "new" }));
      await assert.rejects(
        sdk.send(new PutObjectCommand({ Bucket: "photos", Key: "elsewhere.jpg", Body: "x" })),
        /Access Denied/,
      );
      await assert.rejects(
        sdk.send(new DeleteObjectCommand({ Bucket: "photos", Key: `${FOLDER}cover.jpg` })),
        /Access Denied/,
      );
      sdk.destroy();
    });

    await t.step('"What does this allow?" opens the Access Check for that statement', async () => {
      await page.getByRole("tab", { name: "JSON" }).click();
      await statementOf(page, 3).getByRole("button", { name: "What does this allow?" }).click();
      const summary = page.getByTestId("statement-summary");
      assert.match(
        await summary.innerText(),
        /What statement 3 allows\s+It denies 1 action:\s+s3:DeleteObject\s+on every object in bucket photos/,
      );
      const answer = page.getByTestId("access-result");
      assert.match(await answer.innerText(), /Deny[\s\S]*Decided by statement 3\./);
      await page.getByLabel("Action").fill("s3:GetObject");
      await page.getByLabel("Resource").fill(`arn:aws:s3:::photos/${FOLDER}cover.jpg`);
      await page.getByRole("button", { name: "Check" }).click();
      await answer.getByText("Decided by statement 1.").waitFor();
      assert.match(await answer.innerText(), /^Allow/);
    });
  } finally {
    await browser.close();
    await stack.close();
  }
});

Deno.test("browser: MinIO's canned policies go through the builder unchanged", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    for (const [name, text] of Object.entries(MINIO_CANNED_POLICIES)) {
      await addCannedPolicy(stack.admin, `minio-${name}`, text);
    }
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    for (const [name, text] of Object.entries(MINIO_CANNED_POLICIES)) {
      await t.step(name, async () => {
        await page.goto(`/policies/minio-${name}`);
        await page.getByRole("tab", { name: "JSON" }).click();
        const statements = JSON.parse(text).Statement as { Action: string[] }[];
        for (const [i, statement] of statements.entries()) {
          const chosen = statementOf(page, i + 1).getByRole("list", { name: "Chosen actions" });
          assert.deepEqual(
            await chosen.getByRole("listitem").allInnerTexts(),
            statement.Action.map((a) => `${a}\n✕`),
          );
        }
        assert.equal(await page.getByTestId("builder-hidden").count(), 0, "the builder shows all of it");
        // An edit undone in the builder: the JSON is now the builder's own writing of the policy.
        const effect = statementOf(page, 1).getByLabel("Effect");
        await effect.selectOption("Deny");
        await effect.selectOption("Allow");
        assert.equal(JSON.stringify(JSON.parse(await page.getByLabel("Policy JSON").inputValue())), text);
        await page.getByRole("button", { name: "Save", exact: true }).click();
        await page.getByText("Policy successfully updated").waitFor();
        assert.equal(JSON.stringify(JSON.parse(await infoCannedPolicy(stack.admin, `minio-${name}`))), text);
      });
    }
  } finally {
    await browser.close();
    await stack.close();
  }
});
