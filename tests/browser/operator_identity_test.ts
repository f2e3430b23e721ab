/**
 * The Create Tenant wizard's OpenID page in Chromium (spec 3): its required fields hold the wizard, and the
 * tenant it creates carries MINIO_IDENTITY_OPENID_* in the configuration secret its Tenant resource names
 * (read from the Kubernetes stand-in); the tenant summary then shows OpenID Enabled.
 */
import assert from "node:assert/strict";
import { RESOURCES } from "../../build/k8s_standin/resources.ts";
import { startOperatorStack } from "../operator_helpers.ts";
import { openBrowser } from "./browser.ts";

const SECRET = RESOURCES.find((r) => r.kind === "Secret")!;
const TENANT = RESOURCES.find((r) => r.kind === "Tenant")!;

Deno.test("browser: the wizard's OpenID settings become the tenant's MinIO configuration", async () => {
  const stack = await startOperatorStack({ seedTenant: false });
  const browser = await openBrowser(stack);
  const { page } = browser;
  try {
    await page.goto("/login");
    await page.getByLabel("JWT").fill(stack.cluster.operatorToken);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL("**/tenants");

    await page.goto("/tenants/add");
    await page.getByLabel("Advanced Mode").check();
    await page.getByLabel("Name", { exact: true }).fill("sso-tenant");
    await page.getByLabel("Namespace").fill("ns-b");
    await page.waitForFunction(() =>
      (document.querySelector<HTMLSelectElement>('select[aria-label="Storage Class"]')?.value ?? "") !== ""
    );
    const next = page.getByRole("button", { name: "Next" });
    await next.click();
    await page.getByRole("heading", { name: "Configure" }).waitFor();
    await next.click();
    await page.getByRole("heading", { name: "Pod Affinity" }).waitFor();
    await next.click();

    await page.getByRole("heading", { name: "Identity Provider" }).waitFor();
    await page.getByLabel("OpenID").check();
    assert.equal(
      await next.isDisabled(),
      true,
      "URL, configuration URL, client ID, secret ID and claim name",
    );
    await page.getByLabel("URL", { exact: true }).fill("https://idp.example.com");
    await page.getByLabel("Configuration URL").fill(
      "https://idp.example.com/.well-known/openid-configuration",
    );
    await page.getByLabel("Client ID").fill("minio-tenant");
    await page.getByLabel("Secret ID").fill("tenant-client-secret");
    await page.getByLabel("Claim Name").fill("minio_policies");
    await page.getByLabel("Callback URL").fill("https://console.example.com/oauth_callback");
    await page.getByLabel("Scopes").fill("openid,groups");
    await next.click();

    await page.getByRole("heading", { name: "Security" }).waitFor();
    await next.click();
    await page.getByRole("heading", { name: "Encryption" }).waitFor();
    await next.click();
    await page.getByRole("heading", { name: "Tenant Size" }).waitFor();
    await next.click();
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("dialog", { name: "New Tenant Created" }).getByRole("button", { name: "Done" })
      .click();
    await page.waitForURL("**/tenants");

    const tenant = stack.cluster.store.get(TENANT, "ns-b", "sso-tenant") as unknown as {
      spec: { configuration: { name: string } };
    };
    const secret = stack.cluster.store.get(SECRET, "ns-b", tenant.spec.configuration.name) as unknown as {
      data: Record<string, string>;
    };
    const env = new TextDecoder().decode(Uint8Array.fromBase64(secret.data["config.env"]));
    for (
      const line of [
        'export MINIO_IDENTITY_OPENID_CONFIG_URL="https://idp.example.com/.well-known/openid-configuration"',
        'export MINIO_IDENTITY_OPENID_CLIENT_ID="minio-tenant"',
        'export MINIO_IDENTITY_OPENID_CLIENT_SECRET="tenant-client-secret"',
        'export MINIO_IDENTITY_OPENID_CLAIM_NAME="minio_policies"',
        'export MINIO_IDENTITY_OPENID_REDIRECT_URI="https://console.example.com/oauth_callback"',
        'export MINIO_IDENTITY_OPENID_SCOPES="openid,groups"',
      ]
    ) assert.ok(env.split("\n").includes(line), `${line} in:\n${env}`);

    await stack.cluster.operator.settled();
    await page.goto("/namespaces/ns-b/tenants/sso-tenant/summary");
    const features = page.getByTestId("tenant-features");
    await features.waitFor();
    assert.match(await features.innerText(), /OpenID\s+Enabled/);
    assert.match(await features.innerText(), /Active Directory\s+Disabled/);
  } finally {
    await browser.close().finally(() => stack.close());
  }
});
