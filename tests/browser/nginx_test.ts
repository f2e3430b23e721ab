/**
 * Deck behind Debian's nginx, as administrators put it there (tests/nginx_process.ts, the README's
 * configuration): TLS ends at nginx, the console is under /console/ (CONSOLE_SUBPATH) and nginx either keeps
 * the prefix or strips it, as MinIO's documentation writes it. In Chromium, through each: the bare prefix
 * redirects, sign-in sets a Secure cookie scoped to the prefix, the sidebar opens a page of every area, a file
 * uploads, Trace runs over wss://, a share link works, and nothing the pages ask for leaves the prefix. In
 * operator mode, the hop into a tenant's console works through each.
 */
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { fetchTrusting } from "../../server/lib/http/trusted_cas.ts";
import { type Deck, DECK_ROOT, ready, spawnDeck, stop } from "../deck_process.ts";
import { NGINX_UPGRADE_MAP, nginxServerBlock, startNginx } from "../nginx_process.ts";
import { startOperatorStack } from "../operator_helpers.ts";
import { freePort } from "../storage_process.ts";
import { makeCertificates, type TestCertificates } from "../tls_certs.ts";
import { type BrowserSession, openBrowser, waitForIslands } from "./browser.ts";

const PREFIX = "/console/";
const STYLES = ["keep", "strip"] as const;
const FILE_NAME = "Grüße 你好 + 50% #2? 🎈.txt";

/** A sidebar entry per area, and the title of the page it opens. */
const AREAS: [label: string, title: string][] = [
  ["Dashboard", "Dashboard"],
  ["Object Browser", "All Buckets"],
  ["Service Accounts", "Service Accounts"],
  ["Buckets", "Buckets"],
  ["Users", "Users"],
  ["Groups", "Groups"],
  ["IAM Policies", "IAM Policies"],
  ["Settings", "Settings"],
  ["Logs", "Error Logs | Logs"],
  ["Watch", "Watch"],
  ["Diagnostic", "Diagnostic"],
  ["License", "License"],
];

/** Chromium trusting the test CA's server certificate, with pages under nginx's /console/. */
async function browserFor(origin: string, certs: TestCertificates): Promise<BrowserSession> {
  return await openBrowser({ consoleUrl: `${origin}${PREFIX}` }, [await certs.chromiumTrust()]);
}

/** Goes to a path under the prefix (Playwright's baseURL would resolve "/x" against the origin's root). */
async function visit(page: Page, origin: string, path: string) {
  const response = await page.goto(`${origin}${PREFIX}${path.replace(/^\//, "")}`);
  await waitForIslands(page);
  return response;
}

async function signIn(page: Page, origin: string) {
  // The bare prefix, as typed in an address bar, lands on the sign-in page.
  await page.goto(`${origin}${PREFIX.slice(0, -1)}`);
  await page.waitForURL(`${origin}${PREFIX}login`);
  await waitForIslands(page);
  await page.getByPlaceholder("Enter Username").fill(DECK_ROOT.accessKey);
  await page.getByPlaceholder("Enter Password").fill(DECK_ROOT.secretKey);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname.startsWith(PREFIX) && !url.pathname.endsWith("/login"));
  await waitForIslands(page);
}

Deno.test("behind nginx with TLS, keeping or stripping /console/: every area, upload, Trace, share links", async (t) => {
  const certs = await makeCertificates();
  const dataDir = await Deno.makeTempDir({ prefix: "deck-nginx-" });
  const ports = { console: await freePort(), storage: await freePort() };
  let deck: Deck | null = null;
  let storage: S3Client | null = null;
  const trusting = fetchTrusting([await Deno.readTextFile(certs.caFile)]);
  try {
    deck = spawnDeck(dataDir, ports, { CONSOLE_SUBPATH: PREFIX, CONSOLE_TRUST_FORWARDED: "on" });
    await ready({ ...deck, consoleUrl: `${deck.consoleUrl}${PREFIX.slice(0, -1)}` });
    storage = new S3Client({ endpoint: deck.storageUrl, credentials: DECK_ROOT });
    await makeBucket(storage, "through-nginx");
    for (const style of STYLES) {
      const nginx = await startNginx({ upstream: deck.consoleUrl, location: PREFIX, style, tls: certs });
      const browser = await browserFor(nginx.origin, certs);
      const { page } = browser;
      const origin = nginx.origin;
      try {
        await t.step(`${style}: sign-in sets a Secure session cookie scoped to the prefix`, async () => {
          await signIn(page, origin);
          const token = (await browser.context.cookies()).find((cookie) => cookie.name === "token");
          assert.equal(token?.path, PREFIX);
          assert.equal(token?.secure, true, "nginx's X-Forwarded-Proto: https, trusted");
        });

        await t.step(`${style}: the sidebar opens a page of every area`, async () => {
          const menu = page.getByRole("navigation", { name: "Main menu" });
          for (const [label, title] of AREAS) {
            const link = menu.getByRole("link", { name: label, exact: true });
            const href = await link.getAttribute("href");
            assert.ok(href?.startsWith(PREFIX), `${label} links under the prefix: ${href}`);
            await link.click();
            await page.waitForURL(`${origin}${href}`);
            await waitForIslands(page);
            assert.equal(await page.title(), `${title} | Deck`, label);
          }
        });

        await t.step(`${style}: a file uploads with the object browser's own control`, async () => {
          await visit(page, origin, "/object-browser/through-nginx");
          const file = `${dataDir}/${FILE_NAME}`;
          await Deno.writeTextFile(file, `sent through nginx (${style})`);
          const chooser = page.waitForEvent("filechooser");
          await page.getByRole("button", { name: "Upload Files", exact: true }).click();
          await (await chooser).setFiles([file]);
          await page.getByText("Object(s) uploaded successfully.").waitFor();
          await page.locator(`tr[data-row=${JSON.stringify(FILE_NAME)}]`).waitFor();
        });

        await t.step(`${style}: Trace runs over wss:// through nginx`, async () => {
          await visit(page, origin, "/trace");
          const socket = page.waitForEvent("websocket", (ws) => ws.url().includes("/ws/trace"));
          await page.getByRole("button", { name: "Start" }).click();
          assert.equal(
            (await socket).url().split("?")[0],
            `${origin.replace("https", "wss")}${PREFIX}ws/trace`,
          );
          await page.getByText("No Traced elements received yet").waitFor();
          // Something for the trace to show: an object written straight to the storage.
          await putObject(storage!, "through-nginx", `traced ${style}.txt`, "traced");
          await page.locator("tr", { hasText: "s3.PutObject" }).filter({ hasText: `traced ${style}.txt` })
            .waitFor();
          await page.getByRole("button", { name: "Stop" }).click();
        });

        await t.step(`${style}: a share link names nginx's address and serves the object`, async () => {
          const cookie = (await browser.context.cookies()).find((c) => c.name === "token")!;
          const query = new URLSearchParams({ prefix: FILE_NAME, expires: "3600" });
          const shared = await trusting(
            `${origin}${PREFIX}api/v1/buckets/through-nginx/objects/share?${query}`,
            {
              headers: { cookie: `token=${cookie.value}` },
            },
          );
          assert.equal(shared.status, 200);
          const link: string = await shared.json();
          assert.ok(link.startsWith(`${origin}${PREFIX}`), `the link goes through nginx: ${link}`);
          const object = await trusting(link);
          assert.equal(object.status, 200);
          assert.equal(await object.text(), `sent through nginx (${style})`);
        });

        await t.step(`${style}: nothing the pages asked for left the prefix`, () => {
          // The bare prefix was typed in the address bar (it redirects); every other request stays below it.
          const outside = browser.requests.filter((url) =>
            url !== `${origin}${PREFIX.slice(0, -1)}` && !url.startsWith(`${origin}${PREFIX}`) &&
            !url.startsWith("data:") && !url.startsWith("blob:")
          );
          assert.deepEqual(outside, []);
        });
      } finally {
        await browser.close();
        await nginx.stop();
      }
    }
  } finally {
    if (deck) await stop(deck);
    await certs.remove();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("operator mode behind nginx, keeping or stripping /console/: the hop into a tenant's console", async (t) => {
  const certs = await makeCertificates();
  const stack = await startOperatorStack({
    seedTenant: true,
    env: { CONSOLE_SUBPATH: PREFIX, CONSOLE_TRUST_FORWARDED: "on" },
  });
  try {
    const backing = await stack.cluster.operator.backing("tenant-lite", "storage-lite");
    await makeBucket(
      new S3Client({ endpoint: backing!.storage.url, credentials: backing!.storage.root }),
      "hopped-through-nginx",
    );
    for (const style of STYLES) {
      const nginx = await startNginx({ upstream: stack.consoleUrl, location: PREFIX, style, tls: certs });
      const browser = await browserFor(nginx.origin, certs);
      const { page } = browser;
      try {
        await t.step(
          `${style}: operator sign-in, then the tenant's own console in the hop frame`,
          async () => {
            await visit(page, nginx.origin, "/login");
            await page.getByLabel("JWT").fill(stack.cluster.operatorToken);
            await page.getByRole("button", { name: "Login" }).click();
            await page.waitForURL(`${nginx.origin}${PREFIX}tenants`);
            await visit(page, nginx.origin, "/namespaces/tenant-lite/tenants/storage-lite/summary");
            await page.getByRole("link", { name: "Manage Tenant" }).click();
            await page.waitForURL(`${nginx.origin}${PREFIX}namespaces/tenant-lite/tenants/storage-lite/hop`);
            const frame = page.frameLocator('iframe[title="Tenant management console"]');
            await frame.getByText("Number of Buckets").waitFor();
            await frame.getByRole("link", { name: "Buckets" }).click();
            await frame.locator('tr[data-row="hopped-through-nginx"]').waitFor();
            const src = await page.locator('iframe[title="Tenant management console"]').getAttribute("src");
            assert.ok(
              src?.startsWith(`${PREFIX}api/proxy/tenant-lite/storage-lite/`),
              `the frame's address: ${src}`,
            );
          },
        );
      } finally {
        await browser.close();
        await nginx.stop();
      }
    }
  } finally {
    await stack.close();
    await certs.remove();
  }
});

Deno.test("the README's nginx configurations are the ones run above", async () => {
  const readme = await Deno.readTextFile(new URL("../../README.md", import.meta.url));
  const tls = { cert: "/etc/nginx/certs/deck.crt", key: "/etc/nginx/certs/deck.key" };
  assert.ok(readme.includes(NGINX_UPGRADE_MAP), "the Connection map");
  for (const style of STYLES) {
    const block = nginxServerBlock(
      { upstream: "http://127.0.0.1:9090", location: PREFIX, style, tls },
      "443",
    );
    assert.ok(readme.includes(`\`\`\`nginx\n${block}\n\`\`\``), `the ${style} block`);
  }
});
