/**
 * Browser tests of the Buckets area (issue 5) in Debian's Chromium against the real console and embedded
 * storage: create with every feature, summary dialogs, access rules that change anonymous access, events,
 * replication wizard with a failing bucket, lifecycle with a tier, access audit, delete refused when not empty.
 */
import assert from "node:assert/strict";
import { addTier } from "../../server/lib/s3/admin/buckets.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket, putBucketVersioning, putObject } from "../../server/lib/s3/mod.ts";
import { startEmbeddedStorage } from "../../server/storage/server.ts";
import { createUser, startStack, TEST_KMS_KEY } from "../helpers.ts";
import { openBrowser, signInThroughForm, waitForIslands } from "./browser.ts";

Deno.test("browser: the Buckets area end to end", async (t) => {
  const stack = await startStack({ env: { MINIO_KMS_SECRET_KEY: TEST_KMS_KEY } });
  const remote = await startEmbeddedStorage({
    dataDir: await Deno.makeTempDir({ prefix: "deck-remote-" }),
    hostname: "127.0.0.1",
    port: 0,
  });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step(
      "create bucket: an invalid name keeps Save disabled with one message; locking turns versioning on",
      async () => {
        await page.goto("/buckets");
        await waitForIslands(page);
        await page.getByRole("button", { name: "Create Bucket" }).click();
        const dialog = page.getByRole("dialog", { name: "Create Bucket" });
        const save = dialog.getByRole("button", { name: "Save" });
        await dialog.getByLabel("Bucket Name").fill("Bad_Name");
        assert.equal(await save.isDisabled(), true, "disabled at once, before the message shows");
        await dialog.getByText("Bucket name contains invalid characters").waitFor();
        assert.equal(await dialog.getByRole("alert").count(), 1, "the problem is said once");
        await dialog.getByLabel("Bucket Name").fill("good-name");
        assert.equal(await save.isDisabled(), false);
        await dialog.getByLabel("Object Locking").check();
        assert.equal(await dialog.getByLabel("Versioning").isChecked(), true, "locking needs versioning");
        assert.equal(await dialog.getByLabel("Versioning").isDisabled(), true, "…and keeps it on");
        await dialog.getByText("Object locking needs versioning").waitFor();
        await dialog.getByLabel("Object Locking").uncheck();
        assert.equal(await dialog.getByLabel("Versioning").isDisabled(), false);
        await dialog.getByRole("button", { name: "Close" }).click();
      },
    );

    await t.step(
      "create a bucket with versioning, locking, quota and retention; the summary shows each",
      async () => {
        // A bucket without default encryption answers 404 to the encryption read (the contract's "not configured").
        browser.expectConsoleError(/status of 404/);
        await page.goto("/buckets");
        await page.getByRole("button", { name: "Create Bucket" }).click();
        const dialog = page.getByRole("dialog", { name: "Create Bucket" });
        const save = dialog.getByRole("button", { name: "Save" });
        assert.equal(await save.isDisabled(), true, "a name is required");
        await dialog.getByLabel("Bucket Name").fill("vault");
        await dialog.getByLabel("Versioning").check();
        await dialog.getByLabel("Retention", { exact: true }).check();
        assert.equal(await dialog.getByLabel("Object Locking").isChecked(), true, "retention forces locking");
        assert.equal(await dialog.getByLabel("Object Locking").isDisabled(), true, "…and locks the switch");
        await dialog.getByLabel("Retention Validity", { exact: true }).fill("0");
        assert.equal(await save.isDisabled(), true, "validity below 1");
        await dialog.getByLabel("Retention Validity", { exact: true }).fill("30");
        await dialog.getByLabel("Quota", { exact: true }).check();
        await dialog.getByRole("spinbutton", { name: "Quota" }).fill("2");
        await dialog.getByLabel("Quota unit").selectOption("GiB");
        await save.click();
        await dialog.waitFor({ state: "detached" });
        await page.locator('tr[data-row="vault"]').waitFor();
        await page.goto("/buckets/vault");
        assert.equal(new URL(page.url()).pathname, "/buckets/vault/summary");
        assert.equal(await page.getByTestId("summary-versioning").getByRole("button").innerText(), "Enabled");
        assert.equal(
          await page.getByTestId("summary-locking").innerText().then((s) => s.includes("Enabled")),
          true,
        );
        assert.match(await page.getByTestId("summary-quota").innerText(), /Hard Quota: 2 GiB/);
        assert.match(
          await page.getByTestId("summary-retention").innerText(),
          /Mode: Compliance[\s\S]*Validity: 30 days/,
        );
      },
    );

    await t.step("change access policy, encryption, quota and retention from the summary", async () => {
      await page.getByTestId("summary-access").getByRole("button", { name: "Private" }).click();
      let dialog = page.getByRole("dialog", { name: "Change Access Policy" });
      await dialog.getByLabel("Access Policy").selectOption("PUBLIC");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByTestId("summary-access").getByRole("button", { name: "Public" }).waitFor();
      await page.getByTestId("bucket-access").getByText("Access: Public").waitFor(); // the header follows, no reload

      await page.getByTestId("summary-encryption").getByRole("button").click();
      dialog = page.getByRole("dialog", { name: "Enable Bucket Encryption" });
      await dialog.getByLabel("Encryption Type").selectOption("sse-s3");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByTestId("summary-encryption").getByRole("button", { name: "Enabled (SSE-S3)" })
        .waitFor();

      await page.getByTestId("summary-quota").getByRole("button", { name: "Enabled" }).click();
      dialog = page.getByRole("dialog", { name: "Enable Bucket Quota" });
      assert.equal(
        await dialog.getByRole("spinbutton", { name: "Quota" }).inputValue(),
        "2",
        "shown in the largest exact unit",
      );
      await dialog.getByRole("spinbutton", { name: "Quota" }).fill("5");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByTestId("summary-quota").getByText("Hard Quota: 5 GiB").waitFor();

      await page.getByTestId("summary-retention").getByRole("button", { name: "Enabled" }).click();
      dialog = page.getByRole("dialog", { name: "Set Retention Configuration" });
      await dialog.getByLabel("Retention Mode").selectOption("governance");
      await dialog.getByLabel("Retention Validity unit").selectOption("years");
      await dialog.getByLabel("Retention Validity", { exact: true }).fill("1");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByTestId("summary-retention").getByText("Validity: 1 year").waitFor();
      assert.match(await page.getByTestId("summary-retention").innerText(), /Mode: Governance/);
      await page.reload();
      assert.equal(await page.getByTestId("bucket-access").innerText(), "Access: Public");
    });

    await t.step(
      "quota: fractions are kept in bytes, FIFO can be chosen, a size beyond 8 PiB is refused",
      async () => {
        const quotaDialog = async () => {
          await page.getByTestId("summary-quota").getByRole("button", { name: "Enabled" }).click();
          return page.getByRole("dialog", { name: "Enable Bucket Quota" });
        };
        let dialog = await quotaDialog();
        await dialog.getByRole("spinbutton", { name: "Quota" }).fill("1.5");
        await dialog.getByLabel("Quota unit").selectOption("KiB");
        await dialog.getByRole("button", { name: "Save" }).click();
        await page.getByTestId("summary-quota").getByText("Hard Quota: 1536 B").waitFor();
        dialog = await quotaDialog();
        assert.equal(await dialog.getByRole("spinbutton", { name: "Quota" }).inputValue(), "1536");
        assert.equal(await dialog.getByLabel("Quota unit").inputValue(), "B");
        await dialog.getByRole("button", { name: "Save" }).click();
        await dialog.waitFor({ state: "detached" });
        await page.getByTestId("summary-quota").getByText("Hard Quota: 1536 B").waitFor();
        dialog = await quotaDialog();
        await dialog.getByRole("spinbutton", { name: "Quota" }).fill("99999");
        await dialog.getByLabel("Quota unit").selectOption("PiB");
        await dialog.getByText("The quota must be less than 8 PiB").waitFor();
        assert.equal(await dialog.getByRole("button", { name: "Save" }).isDisabled(), true);
        await dialog.getByRole("spinbutton", { name: "Quota" }).fill("1");
        await dialog.getByLabel("Quota unit").selectOption("GiB");
        await dialog.getByLabel("Quota Type").selectOption("fifo");
        // The embedded storage enforces hard quotas only and says so; a MinIO server would take it.
        browser.expectConsoleError(/status of 400/);
        await dialog.getByRole("button", { name: "Save" }).click();
        assert.match(await dialog.getByTestId("dialog-message").innerText(), /fifo is not supported/i);
        await dialog.getByRole("button", { name: "Close" }).click();
      },
    );

    await t.step("access rules: add, edit and delete change anonymous access", async () => {
      await makeBucket(stack.admin, "site");
      await putObject(stack.admin, "site", "pub/index.html", "hello");
      const anonymous = () =>
        fetch(`${stack.storage.url}/site/pub/index.html`).then(async (
          r,
        ) => (await r.body?.cancel(), r.status));
      assert.equal(await anonymous(), 403);
      await page.goto("/buckets/site/prefix");
      await page.getByRole("button", { name: "Add Access Rule" }).click();
      let dialog = page.getByRole("dialog", { name: "Add Access Rule" });
      await dialog.getByLabel("Prefix").fill("pub");
      await dialog.getByLabel("Access").selectOption("readonly");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.locator('tr[data-row="pub"]', { hasText: "readonly" }).waitFor();
      assert.equal(await anonymous(), 200);
      await page.getByRole("button", { name: "Add Access Rule" }).click();
      dialog = page.getByRole("dialog", { name: "Add Access Rule" });
      await dialog.getByLabel("Prefix").fill("pub");
      await dialog.getByText("The prefix pub already has a rule (readonly); edit that rule instead.")
        .waitFor();
      assert.equal(
        await dialog.getByRole("button", { name: "Save" }).isDisabled(),
        true,
        "Add does not overwrite",
      );
      await dialog.getByRole("button", { name: "Close" }).click();
      await page.getByRole("button", { name: "edit pub" }).click();
      dialog = page.getByRole("dialog", { name: "Edit Access Rule" });
      await dialog.getByLabel("Access").selectOption("writeonly");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.locator('tr[data-row="pub"]', { hasText: "writeonly" }).waitFor();
      assert.equal(await anonymous(), 403);
      await page.getByRole("button", { name: "delete pub" }).click();
      await page.getByRole("dialog", { name: "Delete Access Rule" }).getByRole("button", { name: "Delete" })
        .click();
      await page.locator('tr[data-row="pub"]').waitFor({ state: "detached" });
    });

    await t.step(
      "events: subscribe to a webhook target configured on the server, then delete it",
      async () => {
        const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
        try {
          const res = await page.request.put(`${stack.consoleUrl}/api/v1/configs/notify_webhook`, {
            data: {
              key_values: [{ key: "enable", value: "on" }, {
                key: "endpoint",
                value: `http://127.0.0.1:${(hook.addr as Deno.NetAddr).port}/`,
              }, { key: "queue_dir", value: `${stack.dataDir}/events-queue` }],
              arn_resource_id: "ui",
            },
            headers: { origin: stack.consoleUrl },
          });
          assert.equal(res.status(), 200);
          assert.equal(
            (await page.request.post(`${stack.consoleUrl}/api/v1/service/restart`, {
              data: {},
              headers: { origin: stack.consoleUrl },
            })).status(),
            204,
          );
          await page.goto("/buckets/site/events");
          await page.getByRole("button", { name: "Subscribe to Event" }).click();
          const dialog = page.getByRole("dialog", { name: "Subscribe To Event" });
          await dialog.getByLabel("PUT - Object Uploaded").check();
          await dialog.getByLabel("Prefix").fill("uploads/");
          await dialog.getByRole("button", { name: "Save" }).click();
          const row = page.locator("tr[data-row]", { hasText: "uploads/" });
          await row.waitFor();
          assert.match(await row.innerText(), /arn:minio:sqs:.*:ui:webhook\s+put\s+uploads\//);
          await row.getByRole("button", { name: /^delete/ }).click();
          await page.getByRole("dialog", { name: "Delete Event" }).getByRole("button", { name: "Delete" })
            .click();
          await row.waitFor({ state: "detached" });
        } finally {
          await hook.shutdown();
        }
      },
    );

    await t.step("multi-bucket replication wizard: one bucket fails and keeps its error", async () => {
      const remoteAdmin = new S3Client({ endpoint: remote.url, credentials: remote.root });
      await makeBucket(remoteAdmin, "site-copy");
      await putBucketVersioning(remoteAdmin, "site-copy", { status: "Enabled" });
      await putBucketVersioning(stack.admin, "site", { status: "Enabled" });
      await makeBucket(stack.admin, "plain"); // not versioned: replication is refused for it
      await page.goto("/buckets");
      await page.getByRole("checkbox", { name: "Select site" }).check();
      await page.getByRole("checkbox", { name: "Select plain" }).check();
      await page.getByRole("button", { name: "Set Replication" }).click();
      const dialog = page.getByRole("dialog", { name: "Set Multiple Bucket Replication" });
      assert.match(await dialog.innerText(), /root credentials/);
      await dialog.getByLabel("Target URL").fill(remote.url.replace("http://", ""));
      await dialog.getByLabel("Use TLS").uncheck();
      await dialog.getByLabel("Access Key").fill(remote.root.accessKey);
      await dialog.getByLabel("Secret Key").fill(remote.root.secretKey);
      await dialog.getByRole("button", { name: "Next" }).click();
      await dialog.getByLabel("Remote bucket for site").selectOption("site-copy");
      await dialog.getByLabel("Remote bucket for plain").selectOption("site-copy");
      await dialog.getByRole("button", { name: "Create" }).click();
      const error = dialog.getByTestId("replication-error-plain");
      await error.waitFor();
      assert.match(await error.getAttribute("data-tip") ?? "", /[Vv]ersioning/);
      await dialog.locator('tr[data-row="site"]').waitFor({ state: "detached" });
      await dialog.getByRole("button", { name: "Close" }).click();
      await page.goto("/buckets/site/replication");
      const rule = page.locator("tr[data-row]", { hasText: "site-copy" });
      await rule.waitFor();
      assert.doesNotMatch(await rule.innerText(), /arn:aws:s3:::/);
    });

    await t.step("lifecycle: add a rule with a transition tier, then disable it", async () => {
      const remoteAdmin = new S3Client({ endpoint: remote.url, credentials: remote.root });
      await makeBucket(remoteAdmin, "cold");
      await addTier(stack.admin, {
        Version: "v1",
        Type: "minio",
        Name: "COLD",
        MinIO: {
          Endpoint: remote.url,
          AccessKey: remote.root.accessKey,
          SecretKey: remote.root.secretKey,
          Bucket: "cold",
          Prefix: "",
          Region: "",
        },
      });
      await page.goto("/buckets/site/lifecycle");
      assert.equal(await page.getByTestId("empty-message").innerText(), "There are no Lifecycle rules yet");
      await page.getByRole("button", { name: "Add Lifecycle Rule" }).click();
      const dialog = page.getByRole("dialog", { name: "Add Lifecycle Rule" });
      await dialog.getByLabel("Type of lifecycle").selectOption("transition");
      await dialog.getByLabel("Transition Days", { exact: true }).fill("0");
      assert.equal(await dialog.getByRole("button", { name: "Save" }).isDisabled(), true, "at least 1 day");
      await dialog.getByLabel("Transition Days", { exact: true }).fill("30");
      await dialog.getByLabel("Storage Class").selectOption("COLD");
      await dialog.getByLabel("Prefix").fill("old/");
      await dialog.getByLabel("Tag key 1").fill("env");
      await dialog.getByLabel("Tag value 1").fill("test");
      await dialog.getByRole("button", { name: "Add tag" }).click();
      await dialog.getByLabel("Tag key 2").fill("env");
      await dialog.getByLabel("Tag value 2").fill("prod");
      await dialog.getByText("The tag key env is used twice; each key can have one value").waitFor();
      assert.equal(
        await dialog.getByRole("button", { name: "Save" }).isDisabled(),
        true,
        "one value per tag key",
      );
      await dialog.getByLabel("Tag key 2").fill("team");
      await dialog.getByRole("button", { name: "Save" }).click();
      const row = page.locator("tr[data-row]", { hasText: "old/" });
      await row.waitFor();
      assert.match(await row.innerText(), /old\/\s+Enabled\s+30 days\s+COLD/);
      await row.getByRole("button", { name: /^edit/ }).click();
      const edit = page.getByRole("dialog", { name: "Edit Lifecycle Configuration" });
      await edit.getByLabel("Enabled").uncheck();
      await edit.getByRole("button", { name: "Save" }).click();
      await page.locator("tr[data-row]", { hasText: "Disabled" }).waitFor();
    });

    await t.step("access audit lists the policy and the user it grants the bucket to", async () => {
      await createUser(stack, "auditor", "auditor-secret", [{
        name: "site-reader",
        document: {
          Version: "2012-10-17",
          Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::site/*"] }],
        },
      }]);
      await page.goto("/buckets/site/access");
      await page.locator('tr[data-row="site-reader"]').waitFor();
      await page.getByRole("tab", { name: "Users" }).click();
      await page.locator('tr[data-row="auditor"]').waitFor();
    });

    await t.step(
      "a non-empty bucket cannot be deleted: the server's error shows and nothing is removed",
      async () => {
        browser.expectConsoleError(/status of 409/);
        await page.goto("/buckets");
        await page.getByRole("button", { name: "delete site" }).click();
        const dialog = page.getByRole("dialog", { name: "Delete Bucket" });
        assert.match(await dialog.innerText(), /only be deleted if it is empty/);
        await dialog.getByRole("button", { name: "Delete" }).click();
        const message = dialog.getByTestId("dialog-message");
        await message.waitFor();
        assert.match(await message.innerText(), /not empty/i);
        await dialog.getByRole("button", { name: "Cancel" }).click();
        await page.reload();
        await page.locator('tr[data-row="site"]').waitFor();
      },
    );
  } finally {
    await browser.close();
    await remote.close();
    await stack.close();
  }
});

Deno.test("browser: against a non-distributed server the bucket screens hide what it cannot do", async () => {
  const stack = await startStack({ reportedBackend: "fs" });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);
    await page.goto("/buckets");
    await page.getByRole("button", { name: "Create Bucket" }).click();
    const dialog = page.getByRole("dialog", { name: "Create Bucket" });
    await dialog.getByText("Some these features are disabled as server is running in non-erasure coded mode.")
      .waitFor();
    assert.equal(await dialog.getByLabel("Quota", { exact: true }).count(), 0);
    await dialog.getByLabel("Versioning").check();
    assert.equal(await dialog.getByLabel("Retention", { exact: true }).count(), 0);
    await dialog.getByLabel("Bucket Name").fill("plain");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "detached" });
    await page.goto("/buckets/plain/replication");
    assert.equal(
      new URL(page.url()).pathname,
      "/buckets/plain/summary",
      "replication exists only in distributed mode",
    );
    const menu = await page.getByRole("list", { name: "Bucket sections" }).innerText();
    assert.doesNotMatch(menu, /Replication|Lifecycle/);
    assert.equal(await page.getByTestId("summary-quota").count(), 0);
    assert.equal(await page.getByTestId("summary-versioning").count(), 0);
    await page.getByTestId("summary-encryption").waitFor();
  } finally {
    await browser.close();
    await stack.close();
  }
});
