/**
 * Operator mode in Debian's Chromium against the real console and the stand-in cluster (tenants backed by
 * real storage servers and consoles): sign-in, the Create Tenant wizard in simple and advanced mode, tenant
 * detail tabs, a licence activated and attached to a tenant, Add Pool, pods, pod events and logs, Edit YAML, the hop into the tenant's console, volumes,
 * drive formatting with its errors file, and deleting the tenant.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { makeBucket } from "../../server/lib/s3/mod.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { createLicenseSigner, standardClaims } from "../license_fixture.ts";
import { type OperatorStack, startOperatorStack } from "../operator_helpers.ts";
import { openBrowser } from "./browser.ts";

const T = "/namespaces/tenant-lite/tenants/storage-lite";

async function signInOperator(page: Page, token: string): Promise<void> {
  await page.goto("/login");
  await page.getByRole("heading", { name: "Operator Login" }).waitFor();
  await page.getByLabel("JWT").fill(token);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL("**/tenants");
}

/** Fills the Name Tenant page and waits until the namespace check has filled the storage classes. */
async function nameTenant(page: Page, name: string, namespace: string): Promise<void> {
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Namespace").fill(namespace);
  await page.waitForFunction(() =>
    (document.querySelector<HTMLSelectElement>('select[aria-label="Storage Class"]')?.value ?? "") !== ""
  );
}

async function waitForTenantRow(page: Page, stack: OperatorStack, name: string) {
  await stack.cluster.operator.settled();
  await page.getByRole("button", { name: "Refresh" }).click();
  await page.locator(`tr[data-row$="/${name}"]`).waitFor();
}

Deno.test("browser: operator mode end to end", async (t) => {
  const signer = await createLicenseSigner();
  const stack = await startOperatorStack({ seedTenant: true, licensePublicKeyFile: signer.publicKeyFile });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await t.step(
      "operator sign-in: a refused token shows the error, a good one opens the tenants",
      async () => {
        browser.expectConsoleError(/status of 401/);
        await page.goto("/login");
        await page.getByLabel("JWT").fill("not-a-token");
        await page.getByRole("button", { name: "Login" }).click();
        await page.getByTestId("error-banner").getByText("Invalid Login").waitFor();
        await signInOperator(page, stack.cluster.operatorToken);
        assert.match(await page.title(), /Tenants \| Deck Operator/);
        await page.getByTestId("logo").getByText("Deck Operator").waitFor();
        const docs = page.getByRole("navigation", { name: "Main menu" }).getByRole("link", {
          name: "Documentation",
        });
        assert.match((await docs.getAttribute("href"))!, /kubernetes.*[?&]ref=op$/, "the operator's docs");
        const row = page.locator('tr[data-row="tenant-lite/storage-lite"]');
        assert.match(await row.innerText(), /storage-lite\s+tenant-lite\s+8 GiB\s+1\s+Initialized/);
        assert.equal(await row.locator("[data-health]").getAttribute("data-health"), "green");
      },
    );

    await t.step(
      "wizard, simple mode: validations, Create blocked until valid, credentials shown once",
      async () => {
        await page.getByRole("link", { name: "Create Tenant" }).click();
        await page.waitForURL("**/tenants/add");
        const next = page.getByRole("button", { name: "Next" });
        await page.getByLabel("Name", { exact: true }).fill("Bad_Name");
        await page.getByText("Name only can contain lowercase letters, numbers and '-'. Min. Length: 3")
          .waitFor();
        await page.getByLabel("Namespace").fill("tenant-lite");
        await page.getByText("You can only create one tenant per namespace").waitFor();
        assert.equal(await next.isDisabled(), true);
        await nameTenant(page, "wizard-simple", "ns-a");
        assert.equal(await page.getByLabel("Storage Class").inputValue(), "standard");
        await next.click();

        await page.getByRole("heading", { name: "Tenant Size" }).waitFor();
        browser.expectConsoleError(/status of 507/);
        await page.getByLabel("Number of Servers").fill("3");
        await page.getByText("Number of servers must be at least 4").waitFor();
        assert.equal(await next.isDisabled(), true);
        browser.expectConsoleError(/status of 507/);
        await page.getByLabel("Number of Servers").fill("9");
        await page.getByText(/there are not enough nodes in the cluster to support this tenant/i).waitFor();
        assert.equal(await next.isDisabled(), true);
        await page.getByLabel("Number of Servers").fill("4");
        await page.getByLabel("Total Size", { exact: true }).fill("2000");
        await page.getByText("Volume size must be greater than 1Gi and less than 924 GiB").waitFor();
        assert.equal(await next.isDisabled(), true);
        await page.getByLabel("Total Size", { exact: true }).fill("100");
        await page.getByTestId("capacity-summary").getByText("EC:2").waitFor();
        assert.equal(await page.getByLabel("Erasure Code Parity").inputValue(), "EC:2");
        const capacity = await page.getByTestId("capacity-summary").innerText();
        assert.match(capacity, /Raw Capacity\s+100 GiB/);
        assert.match(capacity, /Usable Capacity\s+50 GiB/);
        assert.match(capacity, /Drive Failures Tolerated\s+2/);
        assert.match(await page.getByTestId("size-summary").innerText(), /Drive Capacity\s+25 GiB/);
        await next.click();

        await page.getByTestId("tenant-preview").waitFor();
        assert.match(
          await page.getByTestId("tenant-preview").innerText(),
          /Tenant Name\s+wizard-simple[\s\S]*EC Parity\s+EC:2/,
        );
        await page.getByRole("button", { name: "Create" }).click();
        const dialog = page.getByRole("dialog", { name: "New Tenant Created" });
        const credentials = await dialog.getByTestId("tenant-credentials").innerText();
        assert.match(credentials, /Access Key\s+[A-Za-z0-9]{16}\s+Secret Key\s+[A-Za-z0-9]{32}/);
        await dialog.getByRole("button", { name: "Done" }).click();
        await page.waitForURL("**/tenants");
        await waitForTenantRow(page, stack, "wizard-simple");
        // Shown once: nothing in the tenant's pages repeats the secret.
        const secret = /Secret Key\s+(\S+)/.exec(credentials)![1];
        await page.goto("/namespaces/ns-a/tenants/wizard-simple/summary");
        assert.equal((await page.content()).includes(secret), false);
      },
    );

    await t.step(
      "wizard, advanced mode: every page's rules, then a tenant with a node selector and no TLS",
      async () => {
        await page.goto("/tenants/add");
        await page.getByLabel("Advanced Mode").check();
        // A namespace that does not exist: the quota lookup fails and the wizard offers to create it.
        browser.expectConsoleError(/status of 404/);
        await page.getByLabel("Name", { exact: true }).fill("wizard-advanced");
        await page.getByLabel("Namespace").fill("fresh-advanced");
        await page.getByRole("button", { name: "Create namespace" }).click();
        await page.getByRole("dialog", { name: "Create namespace" }).getByRole("button", { name: "Create" })
          .click();
        await page.waitForFunction(() =>
          (document.querySelector<HTMLSelectElement>('select[aria-label="Storage Class"]')?.value ?? "") !==
            ""
        );
        const next = page.getByRole("button", { name: "Next" });
        await next.click();

        await page.getByRole("heading", { name: "Configure" }).waitFor();
        await page.getByLabel("Use custom image").check();
        await page.getByLabel("MinIO's Image").fill("not-an-image");
        await page.getByText("Format must be of form: 'minio/minio:VERSION'").waitFor();
        assert.equal(await next.isDisabled(), true);
        await page.getByLabel("MinIO's Image").fill("minio/minio:RELEASE.2021-09-01T00-00-00Z");
        await next.click();

        await page.getByRole("heading", { name: "Pod Affinity" }).waitFor();
        await page.getByLabel("Node Selector").check();
        const key = page.getByLabel("Label key 1");
        await key.waitFor();
        await key.selectOption("disk-type");
        await page.getByLabel("Label value 1").selectOption("nvme");
        await page.getByText("Selector: disk-type=nvme").waitFor();
        await next.click();

        await page.getByRole("heading", { name: "Identity Provider" }).waitFor();
        await page.getByLabel("Access Key 1").fill("short");
        await page.getByText("Keys must be at least length 8").waitFor();
        assert.equal(await next.isDisabled(), true);
        assert.equal(
          await page.getByRole("button", { name: "Remove key pair 1" }).isDisabled(),
          true,
          "the last pair cannot be removed",
        );
        await page.getByRole("button", { name: "Randomize" }).click();
        assert.match(await page.getByLabel("Access Key 1").inputValue(), /^[A-Za-z0-9]{16}$/);
        await page.getByLabel("Active Directory").check();
        await page.getByLabel("Server Insecure").check();
        await page.getByText("Warning: All traffic with Active Directory will be unencrypted").waitFor();
        await page.getByLabel("Built-in").check();
        await next.click();

        await page.getByRole("heading", { name: "Security" }).waitFor();
        await page.getByLabel("Enable AutoCert").uncheck();
        assert.equal(await next.isDisabled(), true, "TLS without auto-cert needs custom certificates");
        await page.getByLabel("TLS", { exact: true }).uncheck();
        await next.click();

        await page.getByRole("heading", { name: "Encryption" }).waitFor();
        await page.getByLabel("Enable Server Side Encryption").check();
        assert.equal(await next.isDisabled(), true, "Vault needs its endpoint and AppRole");
        await page.getByLabel("Enable Server Side Encryption").uncheck();
        await next.click();

        await page.getByRole("heading", { name: "Tenant Size" }).waitFor();
        await page.getByLabel("Memory per Node [Gi]").fill("1");
        await page.getByText("Memory size must be greater than 2Gi").waitFor();
        assert.equal(await next.isDisabled(), true);
        await page.getByLabel("Memory per Node [Gi]").fill("4");
        await page.getByLabel("Drives per Server").fill("2");
        await page.getByTestId("capacity-summary").getByText("EC:4").waitFor();
        await next.click();
        const preview = await page.getByTestId("tenant-preview").innerText();
        assert.match(preview, /Pod Affinity\s+Node Selector/);
        assert.match(preview, /TLS\s+Disabled/);
        await page.getByRole("button", { name: "Create" }).click();
        await page.getByRole("dialog", { name: "New Tenant Created" }).getByRole("button", { name: "Done" })
          .click();
        await page.waitForURL("**/tenants");
        await waitForTenantRow(page, stack, "wizard-advanced");
      },
    );

    await t.step("tenant detail: summary, features, usage, security, licence", async () => {
      await page.goto(`${T}`);
      await page.waitForURL(`**${T}/summary`);
      assert.match(
        await page.getByTestId("tenant-details").innerText(),
        /Clusters\s+1\s+Instances\s+4\s+Volumes\s+4/i,
      );
      assert.match(
        await page.getByTestId("tenant-health").innerText(),
        /Drives Online\s+4\s+Drives Offline\s+0\s+Write Quorum\s+3/i,
      );
      await page.getByTestId("tenant-usage").getByText(/used of 8 GiB/).waitFor();
      assert.match(await page.getByTestId("tenant-features").innerText(), /MinIO TLS\s+Disabled/);
      await page.getByRole("button", { name: "minio/minio:RELEASE.2021-08-17T20-53-08Z" }).click();
      const update = page.getByRole("dialog", { name: "Update MinIO Version" });
      await update.getByLabel("Image", { exact: true }).fill("minio-latest");
      await update.getByText("Format must be of form: 'minio/minio:VERSION'").waitFor();
      assert.equal(await update.getByRole("button", { name: "Save" }).isDisabled(), true);
      await update.getByLabel("Image", { exact: true }).fill("minio/minio:RELEASE.2021-08-17T20-53-08Z");
      await update.getByRole("button", { name: "Cancel" }).click();

      await page.getByRole("link", { name: "Security" }).click();
      await page.getByLabel("Custom Certificates").check();
      const certs = new URL("../../build/k8s_standin/certs/", import.meta.url).pathname;
      // Two key pairs and two CAs in one save: the tab posts lists, as spec 3 §7.1 says.
      await page.getByLabel("Cert 1", { exact: true }).setInputFiles(`${certs}tenant.crt`);
      await page.getByLabel("Key 1", { exact: true }).setInputFiles(`${certs}tenant.key`);
      await page.getByRole("button", { name: "Add Certificate" }).click();
      await page.getByLabel("Cert 2", { exact: true }).setInputFiles(`${certs}server.crt`);
      await page.getByLabel("Key 2", { exact: true }).setInputFiles(`${certs}server.key`);
      await page.getByLabel("CA Cert 1", { exact: true }).setInputFiles(`${certs}tenant-ca.crt`);
      await page.getByRole("button", { name: "Add CA Certificate" }).click();
      await page.getByLabel("CA Cert 2", { exact: true }).setInputFiles(`${certs}ca.crt`);
      await page.getByRole("button", { name: "Save" }).click();
      await page.getByRole("dialog", { name: "Save and Restart" }).getByRole("button", { name: "Restart" })
        .click();
      const minioCerts = page.getByTestId("certs-MinIO Certificates");
      await minioCerts.getByText(
        "minio.tenant-lite.svc.cluster.local, *.storage-lite-hl.tenant-lite.svc.cluster.local, 10.96.0.20",
      ).waitFor();
      await minioCerts.getByText("localhost, 127.0.0.1").waitFor();
      assert.equal(await minioCerts.locator("li").count(), 2);
      const caCerts = page.getByTestId("certs-CA Certificates");
      await caCerts.getByText("ca.tenant-lite.example").waitFor();
      assert.equal(await caCerts.locator("li").count(), 2);
      assert.match(
        await caCerts.locator("li").first().innerText(),
        /Expiry: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/,
      );
      // The sidebar's Operator group has a License entry too (spec 1 §2): take the tenant's own tab.
      await page.getByRole("list", { name: "Tenant sections" }).getByRole("link", { name: "License" })
        .click();
      await page.getByRole("link", { name: "Activate Product" }).click();
      // The License page in operator mode: Activate, and outgoing links marked ref=op.
      await page.getByRole("button", { name: "Activate" }).waitFor();
      assert.match(
        (await page.getByTestId("plan-table").getByRole("link", { name: "Join Slack" }).getAttribute(
          "href",
        ))!,
        /ref=op$/,
      );
      // Activate a licence key there; the tenant's License tab then offers 'Attach License', which registers it.
      await page.getByRole("button", { name: "Activate" }).click();
      const activate = page.getByRole("dialog", { name: "Activate SUBNET License" });
      await activate.getByLabel("License Key").fill(
        await signer.sign(standardClaims({ org: "Operator Org" })),
      );
      await Promise.all([
        page.waitForEvent("load"),
        activate.getByRole("button", { name: "Activate" }).first().click(),
      ]);
      await page.getByText("Operator Org").first().waitFor();
      await page.goto(`${T}/license`);
      assert.equal(await page.getByRole("link", { name: "Activate Product" }).count(), 0);
      await Promise.all([
        page.waitForEvent("load"),
        page.getByRole("button", { name: "Attach License" }).click(),
      ]);
      assert.match(
        await page.getByTestId("tenant-license").innerText(),
        /Organization\s+Operator Org[\s\S]*Plan\s+STANDARD\s+Requester\s+ops@example.com/,
      );
      await page.getByRole("link", { name: "Metrics" }).click();
      await page.frameLocator('iframe[title="Tenant metrics"]').getByText("Number of Buckets").waitFor();
    });

    await t.step("Add Pool from 'Expand Tenant'", async () => {
      await page.goto(`${T}/pools`);
      await page.getByRole("button", { name: "Expand Tenant" }).click();
      const dialog = page.getByRole("dialog", { name: "Add Pool" });
      await dialog.getByLabel("Volume Size [Gi]").fill("3");
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.locator('tr[data-row="pool-1"]').waitFor();
      assert.match(await page.locator('tr[data-row="pool-1"]').innerText(), /pool-1\s+12 GiB\s+4\s+4/);
      await page.getByPlaceholder("Filter Pools").fill("nothing");
      await page.getByText("No Pools found").waitFor();
    });

    await t.step("pods: delete one with its typed name; events and logs of a pod", async () => {
      await stack.cluster.operator.settled();
      await page.goto(`${T}/pods`);
      await page.getByRole("button", { name: "delete storage-lite-pool-0-1" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete Pod" });
      const field = dialog.getByLabel("To continue please type storage-lite-pool-0-1 in the box.");
      await field.fill("storage-lite-pool");
      await dialog.getByText("Tenant name is incorrect").waitFor();
      assert.equal(await dialog.getByRole("button", { name: "Delete" }).isDisabled(), true);
      await field.fill("storage-lite-pool-0-1");
      // Enter in the typed name presses Delete, as in every dialog (issue 18).
      await field.press("Enter");
      await dialog.waitFor({ state: "detached" });
      await page.getByRole("link", { name: "view storage-lite-pool-0-2" }).click();
      await page.getByRole("heading", { name: "Pods > storage-lite-pool-0-2" }).waitFor();
      assert.match(await page.getByRole("table", { name: "events" }).innerText(), /Scheduled/);
      await page.getByRole("tab", { name: "Logs" }).click();
      const logs = page.getByTestId("pod-logs");
      await logs.getByText("MinIO Object Storage Server").waitFor();
      const text = await logs.innerText();
      assert.equal(
        ["\u001b", "[1m", "\u0007"].some((c) => text.includes(c)),
        false,
        "colour codes and bells are stripped",
      );
      assert.match(text, /\tRootUser/, "indentation stays as a tab");
      await page.getByPlaceholder("Highlight Line").fill("Console:");
      assert.equal(await logs.locator("[data-highlighted]").count(), 1);
    });

    await t.step("Edit YAML: invalid YAML refused in the dialog, a valid edit saved", async () => {
      await page.goto(`${T}/summary`);
      await page.getByRole("button", { name: "Edit YAML" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit YAML" });
      const editor = dialog.getByLabel("Tenant YAML");
      await editor.waitFor();
      const yaml = await editor.inputValue();
      await editor.fill("");
      assert.equal(await dialog.getByRole("button", { name: "Save" }).isDisabled(), true);
      browser.expectConsoleError(/status of 400/);
      await editor.fill("spec:\n  pools: [\n");
      await dialog.getByRole("button", { name: "Save" }).click();
      await dialog.getByTestId("dialog-message").waitFor();
      await editor.fill(yaml.replace("RELEASE.2021-08-17T20-53-08Z", "RELEASE.2021-10-01T00-00-00Z"));
      await Promise.all([page.waitForEvent("load"), dialog.getByRole("button", { name: "Save" }).click()]);
      await page.getByTestId("tenant-details").getByText("minio/minio:RELEASE.2021-10-01T00-00-00Z")
        .waitFor();
    });

    await t.step("hop: the tenant's own console in a frame, used to list its buckets", async () => {
      const backing = await stack.cluster.operator.backing("tenant-lite", "storage-lite");
      await makeBucket(
        new S3Client({ endpoint: backing!.storage.url, credentials: backing!.storage.root }),
        "hopped-bucket",
      );
      await page.goto(`${T}/summary`);
      await page.getByRole("link", { name: "Manage Tenant" }).click();
      await page.waitForURL(`**${T}/hop`);
      assert.equal(await page.locator(".deck-sidebar").count(), 0, "no operator sidebar on the hop screen");
      const frame = page.frameLocator('iframe[title="Tenant management console"]');
      await frame.getByText("Number of Buckets").waitFor();
      await page.getByTestId("hop-loader").waitFor({ state: "detached" });
      await frame.getByRole("link", { name: "Buckets" }).click();
      await frame.locator('tr[data-row="hopped-bucket"]').waitFor();
      // Refresh reloads the frame where it is (the address already carries cp=y).
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.getByTestId("hop-loader").waitFor({ state: "detached" });
      await frame.locator('tr[data-row="hopped-bucket"]').waitFor();
    });

    await t.step("volumes: case-sensitive search, a row opens its tenant", async () => {
      await page.goto("/storage");
      await page.waitForURL("**/storage/volumes");
      const claim = page.locator('tr[data-row="tenant-lite/data0-storage-lite-pool-0-0"]');
      await claim.waitFor();
      assert.equal(
        await claim.locator("td:nth-child(5)").innerText(),
        "2 GiB",
        "the size formatter, not bytes",
      );
      await page.getByPlaceholder("Search Volumes (PVCs)").fill("DATA0");
      await page.getByText("No volumes match your filter.").waitFor();
      await page.getByPlaceholder("Search Volumes (PVCs)").fill("storage-lite-pool-0-3");
      await page.getByRole("link", { name: "View tenant tenant-lite/data0-storage-lite-pool-0-3" }).click();
      await page.waitForURL(`**${T}/summary`);
    });

    await t.step("drives: format two, one refused; the errors file downloads", async () => {
      await page.goto("/storage/drives");
      await page.getByLabel("Select node-1:/dev/sdb").check();
      await page.getByLabel("Select node-1:/dev/sdc").check();
      await page.getByRole("button", { name: "Format Selected Drives" }).click();
      const dialog = page.getByRole("dialog", { name: "Format Drives" });
      assert.match(
        await dialog.getByTestId("format-list").innerText(),
        /node-1:\/dev\/sdb\s+node-1:\/dev\/sdc/,
      );
      const format = dialog.getByRole("button", { name: "Format" });
      await dialog.getByLabel("To continue please type YES, PROCEED in the box.").fill("yes, proceed");
      assert.equal(await format.isDisabled(), true);
      await dialog.getByLabel("To continue please type YES, PROCEED in the box.").fill("YES, PROCEED");
      await format.click();
      const errors = page.getByRole("dialog", { name: "Format Errors" });
      assert.match(
        await errors.getByTestId("format-errors").innerText(),
        /node-1\s+\/dev\/sdc\s+Drive in use. Cannot be formatted/,
      );
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        errors.getByRole("button", { name: "Download" }).click(),
      ]);
      assert.equal(download.suggestedFilename(), "csiFormatErrors.json");
      const saved = JSON.parse(await Deno.readTextFile((await download.path())!));
      assert.deepEqual(saved, [{
        node: "node-1",
        drive: "/dev/sdc",
        error: "Drive in use. Cannot be formatted",
      }]);
      await errors.getByRole("button", { name: "Done" }).click();
      assert.match(await page.locator('tr[data-row="node-1:/dev/sdb"]').innerText(), /Ready/);
    });

    await t.step("delete the tenant from its page: 'Tenant Deleted', back to the list", async () => {
      await page.goto("/namespaces/ns-a/tenants/wizard-simple/summary");
      await page.getByRole("button", { name: "Delete" }).click();
      const dialog = page.getByRole("dialog", { name: "Delete Tenant" });
      await dialog.getByLabel("To continue please type wizard-simple in the box.").fill("wizard-simple");
      await dialog.getByRole("button", { name: "Delete" }).click();
      await page.waitForURL("**/tenants");
      await page.getByText("Tenant Deleted").waitFor();
      assert.equal(await page.locator('tr[data-row="ns-a/wizard-simple"]').count(), 0);
    });
  } finally {
    await browser.close();
    await stack.close();
    await signer.cleanup();
  }
});
