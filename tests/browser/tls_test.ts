/**
 * Deck with TLS on both listeners, as `main.ts` starts it: the console on its own certificate
 * (CONSOLE_TLS_CERT/KEY) and the embedded storage on a MinIO certificate directory (CONSOLE_STORAGE_CERTS_DIR),
 * both signed by a private CA the test makes with OpenSSL. Debian's AWS CLI, trusting that CA with
 * --ca-bundle, stores and reads an SSE-C object from another address than loopback; in Chromium the person
 * signs in over https, watches that request in Trace over wss://, and finds the object in the object browser.
 */
import assert from "node:assert/strict";
import { type Deck, DECK_ROOT, ready, spawnDeck, stop } from "../deck_process.ts";
import { freePort } from "../storage_process.ts";
import { awsCli } from "../storage/awscli.ts";
import { makeCertificates } from "../tls_certs.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";

/** An address of this machine other than loopback: SSE-C over plain HTTP is refused from one. */
function externalAddress(): string {
  const found = Deno.networkInterfaces().find((i) =>
    i.family === "IPv4" && !i.address.startsWith("127.") && !i.address.startsWith("169.254.")
  );
  if (!found) throw new Error("this machine has no IPv4 address besides loopback to reach the storage from");
  return found.address;
}

const BUCKET = "tls-sse";
const KEY = "Résumé 年度 + 100% #1? 🚀.txt";
const CUSTOMER_KEY = "0123456789abcdef0123456789ABCDEF"; // 32 bytes, as the CLI takes it

Deno.test("over HTTPS on both listeners: SSE-C from the AWS CLI, Trace over wss:// in Chromium", async (t) => {
  const external = externalAddress();
  const certs = await makeCertificates({ ips: [external] });
  const dataDir = await Deno.makeTempDir({ prefix: "deck-tls-" });
  const ports = { console: await freePort(), storage: await freePort() };
  let deck: Deck | null = null;
  const cli = await awsCli(
    {
      storage: { url: `https://${external}:${ports.storage}`, root: DECK_ROOT },
    },
    [],
    certs.caFile,
  );
  const browser = await openBrowser(
    { consoleUrl: `https://localhost:${ports.console}` },
    [await certs.chromiumTrust()],
  );
  const { page } = browser;
  try {
    deck = spawnDeck(dataDir, ports, {
      CONSOLE_TLS_CERT: certs.cert,
      CONSOLE_TLS_KEY: certs.key,
      CONSOLE_STORAGE_ADDRESS: `${external}:${ports.storage}`,
      CONSOLE_STORAGE_CERTS_DIR: certs.certsDir,
    }, { trust: [certs.caFile] });
    await ready(deck);
    assert.match(deck.output(), new RegExp(`Deck console: https://127\\.0\\.0\\.1:${ports.console}/`));
    assert.match(
      deck.output(),
      new RegExp(`Embedded storage server .* at https://${external}:${ports.storage}`),
    );

    await signInThroughForm(page, DECK_ROOT.accessKey, DECK_ROOT.secretKey);

    await t.step("the session cookie is Secure and HSTS is sent", async () => {
      const token = (await browser.context.cookies()).find((cookie) => cookie.name === "token");
      assert.equal(token?.secure, true);
      const response = await page.goto("/buckets");
      assert.equal(response?.headers()["strict-transport-security"], "max-age=31536000");
    });

    await t.step("Trace opens over wss:// and shows the AWS CLI's SSE-C upload", async () => {
      await page.goto("/trace");
      const socket = page.waitForEvent("websocket", (ws) => ws.url().includes("/ws/trace"));
      await page.getByRole("button", { name: "Start" }).click();
      assert.match((await socket).url(), new RegExp(`^wss://localhost:${ports.console}/ws/trace`));
      await page.getByText("No Traced elements received yet").waitFor();

      await cli.aws("s3api", "create-bucket", "--bucket", BUCKET);
      await Deno.writeTextFile(`${cli.home}/secret.txt`, "sealed with the customer's key");
      await cli.aws(
        "s3api",
        "put-object",
        "--bucket",
        BUCKET,
        "--key",
        KEY,
        "--body",
        `${cli.home}/secret.txt`,
        "--sse-customer-algorithm",
        "AES256",
        "--sse-customer-key",
        CUSTOMER_KEY,
      );
      const row = page.locator("tr", { hasText: "s3.PutObject" }).filter({ hasText: BUCKET });
      await row.waitFor();
      assert.match(await row.innerText(), /200 OK/);
      await page.getByRole("button", { name: "Stop" }).click();
    });

    await t.step("the object reads back with its key, and not without it", async () => {
      await cli.aws(
        "s3api",
        "get-object",
        "--bucket",
        BUCKET,
        "--key",
        KEY,
        "--sse-customer-algorithm",
        "AES256",
        "--sse-customer-key",
        CUSTOMER_KEY,
        `${cli.home}/back.txt`,
      );
      assert.equal(await Deno.readTextFile(`${cli.home}/back.txt`), "sealed with the customer's key");
      const withoutKey = await cli.run(
        "s3api",
        "get-object",
        "--bucket",
        BUCKET,
        "--key",
        KEY,
        `${cli.home}/x`,
      );
      assert.equal(withoutKey.ok, false, "no customer key, no object");
    });

    await t.step(
      "the object browser lists it through the console's calls to the storage over HTTPS",
      async () => {
        await page.goto(`/object-browser/${BUCKET}`);
        const row = page.locator(`tr[data-row=${JSON.stringify(KEY)}]`);
        assert.equal((await row.getByRole("link").innerText()).trim(), KEY);
      },
    );
  } finally {
    await browser.close();
    if (deck) await stop(deck);
    await cli.close();
    await certs.remove();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
