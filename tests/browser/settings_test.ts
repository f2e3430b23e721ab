/**
 * Browser tests of Settings (issue 14) in Debian's Chromium against the real console and embedded storage,
 * with the real PostgreSQL, MariaDB, Redis, RabbitMQ, Mosquitto and NATS of this machine: every
 * configuration edited (and its rules seen), the restart banner raised by a save, shown on other pages and
 * cleared by Restart, a target of each kind added through the three-step flow and seen Online, a tier added
 * and its credentials updated, and the audit webhook view.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { startStack } from "../helpers.ts";
import {
  amqpReader,
  closedPort,
  mysqlReader,
  postgresReader,
  redisReader,
  SERVICES,
  uniqueName,
  webhookReceiver,
} from "../notify_services.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

/** Fills fields by their accessible names. */
async function fill(page: Page, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    await page.getByLabel(label, { exact: true }).fill(value);
  }
}

async function save(page: Page) {
  await page.getByRole("button", { name: "Save", exact: true }).click();
}

async function openConfiguration(page: Page, id: string) {
  await page.goto("/settings");
  await page.getByRole("button", { name: `edit ${id}` }).click();
  await page.getByRole("button", { name: /Back To Configurations/ }).waitFor();
}

Deno.test("browser: Settings end to end", async (t) => {
  const stack = await startStack();
  const browser = await openBrowser(stack);
  const { page } = browser;
  const run = uniqueName("deck_ui");
  const queueDir = await Deno.makeTempDir({ prefix: "deck-ui-queue-" });
  const hook = webhookReceiver();
  // Opened for their clean-up: they drop what the targets may create under this run's names.
  const pg = await postgresReader(`${run}_pg`);
  const my = await mysqlReader(`${run}_my`);
  const redis = await redisReader(`${run}_redis`);
  const rabbit = await amqpReader(`${run}_ex`, `${run}_rk`);
  const banner = page.getByTestId("restart-banner");
  try {
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step("each configuration opens, checks its fields as the spec says, and saves", async () => {
      await page.goto("/settings");
      assert.deepEqual(
        await page.getByRole("table", { name: "configurations" }).locator("tbody tr").allInnerTexts().then((
          rows,
        ) => rows.map((r) => r.trim())),
        [
          "Region",
          "Cache",
          "Compression",
          "Etcd",
          "Identity Openid",
          "Identity LDAP",
          "Logger Webhook",
          "Audit Webhook",
        ],
      );
      assert.equal(await banner.count(), 0, "no restart needed yet");

      await openConfiguration(page, "region");
      await save(page);
      await page.getByText("Field cannot be empty").waitFor();
      await fill(page, { "Server Location": "1st-rack" });
      await page.getByLabel("Comment").click();
      await page.getByText("Please start with a letter").waitFor();
      await fill(page, { "Server Location": "eu-central-1", Comment: "the lab" });
      await save(page);
      await page.getByText("Configuration Region saved").waitFor();
      await banner.getByText("The instance needs to be restarted for configuration changes to take effect.")
        .waitFor();

      // The embedded storage has no cache tier and is not federated: it says so.
      for (
        const [id, label, value] of [["cache", "Drives 1", "/mnt/cache"], [
          "etcd",
          "Endpoints 1",
          "http://127.0.0.1:2379",
        ]] as const
      ) {
        browser.expectConsoleError(/status of 501/);
        await openConfiguration(page, id);
        await fill(page, { [label]: value });
        await save(page);
        await page.getByTestId("dialog-message").getByText(/not implemented/).waitFor();
      }

      await openConfiguration(page, "compression");
      await fill(page, { "Extensions 1": ".txt" });
      await fill(page, { "Extensions 2": "log", "Mime Types 1": "text/*" });
      await save(page);
      await page.getByText("Configuration Compression saved").waitFor();

      await openConfiguration(page, "identity_openid");
      await fill(page, { "Config URL": "not a url" });
      await save(page);
      await page.getByText(/Please enter a valid URL/).waitFor();
      await fill(page, {
        "Config URL": "http://127.0.0.1:9/.well-known/openid-configuration",
        "Client ID": "deck",
        "Claim Name": "policy",
      });
      await save(page);
      await page.getByText("Configuration Identity Openid saved").waitFor();

      await openConfiguration(page, "identity_ldap");
      assert.equal(await page.getByLabel("STS Expiry").inputValue(), "1h", "STS expiry defaults to 1h");
      await save(page);
      assert.equal(await page.getByText("Field cannot be empty").count(), 4, "the four required LDAP fields");
      await fill(page, {
        "Server Addr": "ldap.example.com:636",
        "Username Format 1": "uid=%s",
        "Username Search Filter": "(uid=%s)",
        "Group Search Filter": "(member=%d)",
      });
      await page.getByLabel("TLS Skip Verify").check();
      await save(page);
      await page.getByText("Configuration Identity LDAP saved").waitFor();

      await openConfiguration(page, "logger_webhook");
      await fill(page, { Endpoint: "http://127.0.0.1:9/logs", "Auth Token": "logger-secret" });
      await save(page);
      await page.getByText("Configuration Logger Webhook saved").waitFor();
      await openConfiguration(page, "logger_webhook");
      assert.equal(
        await page.getByLabel("Endpoint").inputValue(),
        "http://127.0.0.1:9/logs",
        "the form shows what is stored",
      );
      assert.equal(await page.getByLabel("Auth Token").inputValue(), "********", "…with the secret masked");
      assert.ok(!(await page.content()).includes("logger-secret"));
    });

    await t.step("the audit webhook view opens its form", async () => {
      await page.goto("/webhook/audit");
      await page.getByRole("heading", { name: "Audit Webhook Configuration" }).waitFor();
      await page.getByRole("button", { name: "Add Webhook Configuration" }).click();
      await fill(page, { Endpoint: "http://127.0.0.1:9/audit", "Auth Token": "audit-secret" });
      await save(page);
      await page.getByText("Configuration Audit Webhook saved").waitFor();
      await page.getByRole("table", { name: "webhook configurations" }).getByText(
        "There are no webhook configurations yet.",
      ).waitFor();
    });

    await t.step("the restart banner shows on every page until Restart succeeds", async () => {
      await page.goto("/buckets");
      await banner.waitFor();
      await banner.getByRole("button", { name: "Restart" }).click();
      await banner.waitFor({ state: "detached" });
      await page.reload();
      await page.getByRole("heading", { name: "Buckets" }).waitFor();
      assert.equal(await banner.count(), 0, "the flag is cleared");
    });

    await t.step("a target of each kind through the three-step flow, then Online", async () => {
      const add = async (service: string, values: Record<string, string>, before?: () => Promise<void>) => {
        await page.goto("/settings?section=notifications");
        await page.getByRole("button", { name: "Add Notification Target" }).click();
        await page.getByRole("heading", { name: "Pick a supported service" }).waitFor();
        await page.getByRole("listitem").filter({ hasText: new RegExp(`^${service}$`) }).click();
        await page.getByRole("heading", { name: `${service} - Add Lambda Notification Target` }).waitFor();
        await before?.();
        await fill(page, values);
        await save(page);
        await page.getByText(`Notification target ${service} saved`).waitFor();
        await page.getByRole("button", { name: "Add Notification Target" }).waitFor();
      };
      // Both Back buttons lead where they say.
      await page.goto("/settings?section=notifications");
      await page.getByRole("button", { name: "Add Notification Target" }).click();
      await page.getByRole("listitem").filter({ hasText: "Webhook" }).click();
      await save(page);
      assert.equal(
        await page.getByText("Field cannot be empty").count(),
        2,
        "endpoint and queue dir are required",
      );
      await page.getByRole("button", { name: /Back To Supported Services/ }).click();
      await page.getByRole("button", { name: /Back To Lambda Notifications/ }).click();
      await page.getByRole("button", { name: "Add Notification Target" }).waitFor();

      await add("Webhook", { Endpoint: hook.url, "Queue Dir": `${queueDir}/webhook` });
      await add("Postgres SQL", {
        Host: "127.0.0.1",
        "DB Name": "test",
        User: "postgres",
        Table: `${run}_pg`,
      }, async () => {
        assert.equal(await page.getByLabel("Port").inputValue(), "5432");
        await page.getByLabel("SSL Mode").selectOption("disable");
      });
      await add("Mysql", { Table: `${run}_my` }, async () => {
        // Typed by hand, then read back into the separate fields (spec 2 §4).
        await page.getByLabel("Enter DSN String").check();
        await fill(page, { "DSN String": SERVICES.mysql });
        await page.getByLabel("Enter DSN String").uncheck();
        assert.equal(await page.getByLabel("Host").inputValue(), "127.0.0.1");
        assert.equal(await page.getByLabel("User").inputValue(), "root");
        await page.getByLabel("Access").check();
      });
      await add("Redis", { Address: SERVICES.redis, Key: `${run}_redis`, "Queue Dir": `${queueDir}/redis` });
      await add("AMQP", {
        URL: SERVICES.amqp,
        Exchange: `${run}_ex`,
        "Routing Key": `${run}_rk`,
        "Queue Dir": `${queueDir}/amqp`,
      }, async () => {
        await page.getByLabel("Exchange Type").selectOption("direct");
      });
      await add("MQTT", { Broker: SERVICES.mqtt, Topic: `deck/${run}`, "Queue Dir": `${queueDir}/mqtt` });
      await add("NATS", { Address: SERVICES.nats, Subject: `deck.${run}`, "Queue Dir": `${queueDir}/nats` });
      await add("Kafka", { Brokers: `127.0.0.1:${closedPort()}`, "Queue Dir": `${queueDir}/kafka` });

      await banner.getByRole("button", { name: "Restart" }).click();
      await banner.waitFor({ state: "detached" });
      await page.getByRole("button", { name: "Refresh" }).click();
      const table = page.getByRole("table", { name: "notification targets" });
      await table.getByText("webhook:_").waitFor();
      const rows = (await table.locator("tbody tr").allInnerTexts()).map((r) => r.replace(/\s+/g, " ").trim())
        .sort();
      assert.deepEqual(rows, [
        "Offline kafka:_",
        "Online amqp:_",
        "Online mqtt:_",
        "Online mysql:_",
        "Online nats:_",
        "Online postgresql:_",
        "Online redis:_",
        "Online webhook:_",
      ]);
      assert.match(
        await table.locator("tr", { hasText: "kafka:_" }).getByText("Offline").getAttribute("class") ?? "",
        /deck-status-offline/,
        "Offline in its own colour",
      );
    });

    await t.step("a tier: the name rule, then its credentials updated", async () => {
      await makeBucket(stack.admin, "tier-ui");
      await page.goto("/settings?section=tiers");
      await page.getByRole("button", { name: "Add Tier" }).click();
      await page.getByRole("button", { name: "MinIO" }).click();
      await page.getByRole("heading", { name: "MinIO - Add Tier Configuration" }).waitFor();
      const nameField = page.getByLabel("Name *");
      await nameField.fill("warm!");
      assert.equal(await nameField.inputValue(), "WARM!", "forced to upper case");
      await nameField.blur();
      await page.getByText(
        "Please verify that string is uppercase only and contains valid characters (numbers, dashes & underscores).",
      ).waitFor();
      const saveButton = page.getByRole("button", { name: "Save", exact: true });
      assert.equal(await saveButton.isDisabled(), true);
      await nameField.fill("warm-1");
      await fill(page, {
        "Endpoint *": stack.storage.url,
        "Access Key *": stack.storage.root.accessKey,
        "Secret Key *": stack.storage.root.secretKey,
        "Bucket *": "tier-ui",
        "Prefix *": "cold/",
        "Region *": "eu-central-1",
      });
      await saveButton.click();
      const row = page.locator("tr[data-row]", { hasText: "WARM-1" });
      await row.waitFor();
      assert.match(
        (await row.innerText()).replace(/\s+/g, " "),
        /WARM-1 s3 http:\/\/127\.0\.0\.1:\d+ tier-ui cold\/ eu-central-1/,
      );
      await row.getByRole("button", { name: /^edit/ }).click();
      const dialog = page.getByRole("dialog", { name: "Update Credentials - s3 / WARM-1" });
      await dialog.getByLabel("Access Key *").fill(stack.storage.root.accessKey);
      assert.equal(
        await dialog.getByRole("button", { name: "Save" }).isDisabled(),
        true,
        "both values are required",
      );
      await dialog.getByLabel("Secret Key *").fill(stack.storage.root.secretKey);
      await dialog.getByRole("button", { name: "Save" }).click();
      await page.getByText("Credentials updated").waitFor();
      await dialog.waitFor({ state: "detached" });
    });
  } finally {
    await browser.close().finally(async () => {
      await Promise.allSettled([hook.close(), pg.close(), my.close(), redis.close(), rabbit.close()]);
      await stack.close();
      await Deno.remove(queueDir, { recursive: true }).catch(() => {});
    });
  }
});
