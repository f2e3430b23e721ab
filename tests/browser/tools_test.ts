/**
 * The live tools in Chromium through the real console and embedded storage: a trace showing a request made
 * with Debian's AWS CLI, an error log line, the upload found in the audit log, a watched upload, heal with a
 * corrupted object in its chart, diagnostics downloaded, and an unauthenticated WebSocket refused.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { keyPathStem } from "../../server/storage/fs/names.ts";
import { startStack, type TestStack } from "../helpers.ts";
import { openBrowser, signInThroughForm } from "./browser.ts";
import { eventually } from "../eventually.ts";

const AWS = "/usr/bin/aws";

/** Runs Debian's AWS CLI against the stack's storage as root. */
async function awsCli(stack: TestStack, home: string, ...args: string[]): Promise<void> {
  const env = {
    AWS_ACCESS_KEY_ID: stack.storage.root.accessKey,
    AWS_SECRET_ACCESS_KEY: stack.storage.root.secretKey,
    AWS_DEFAULT_REGION: "us-east-1",
    AWS_EC2_METADATA_DISABLED: "true",
    AWS_PAGER: "",
    HOME: home,
    PATH: "/usr/bin:/bin",
  };
  const out = await new Deno.Command(AWS, {
    args: ["--endpoint-url", stack.storage.url, ...args],
    env,
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`aws ${args.join(" ")} failed: ${new TextDecoder().decode(out.stderr)}`);
}

Deno.test("browser: trace, logs, audit search, watch, heal and diagnostics", async (t) => {
  if (!(await Deno.stat(AWS).then(() => true, () => false))) {
    throw new Error(`${AWS} is missing: install Debian's awscli package`);
  }
  const stack = await startStack({ logSearch: true });
  const browser = await openBrowser(stack);
  const { page } = browser;
  const home = await Deno.makeTempDir({ prefix: "deck-tools-aws-" });
  try {
    await s3.makeBucket(stack.admin, "tools-bucket");
    await Deno.writeTextFile(`${home}/hello.txt`, "hello from the aws cli");
    await signInThroughForm(page, stack.storage.root.accessKey, stack.storage.root.secretKey);

    await t.step("the Tools menu lists the live tools", async () => {
      const menu = page.getByRole("navigation", { name: "Main menu" });
      for (const label of ["Logs", "Watch", "Trace", "Heal", "Diagnostic"]) {
        assert.ok(await menu.getByRole("link", { name: label, exact: true }).isVisible(), label);
      }
    });

    await t.step("trace: a request made with the AWS CLI appears; a path filter narrows it", async () => {
      await page.goto("/trace");
      await page.getByText("Trace is not started yet").waitFor();
      await page.getByRole("button", { name: "Start" }).click();
      await page.getByText("No Traced elements received yet").waitFor();
      assert.equal(await page.getByLabel("Path").isDisabled(), true, "inputs are locked while running");
      await awsCli(stack, home, "s3", "cp", `${home}/hello.txt`, "s3://tools-bucket/cli/hello.txt");
      const row = page.locator("tr", { hasText: "s3.PutObject" }).filter({
        hasText: "/tools-bucket/cli/hello.txt",
      });
      await row.waitFor();
      assert.match(await row.innerText(), /200 OK/);
      await page.getByRole("button", { name: "Stop" }).click();
      await page.getByLabel("Path").fill("only-this");
      await page.getByRole("button", { name: "Start" }).click();
      await page.getByText("No Traced elements received yet").waitFor();
      await awsCli(stack, home, "s3", "cp", `${home}/hello.txt`, "s3://tools-bucket/other.txt");
      await awsCli(stack, home, "s3", "cp", `${home}/hello.txt`, "s3://tools-bucket/only-this.txt");
      await page.locator("tr", { hasText: "/tools-bucket/only-this.txt" }).first().waitFor();
      assert.equal(
        await page.locator("tr", { hasText: "/tools-bucket/other.txt" }).count(),
        0,
        "the path filter applies",
      );
      await page.getByRole("button", { name: "Stop" }).click();

      // Storage calls have no HTTP status: a dash, and the bytes written under Upload.
      await page.getByLabel("Path").fill("storage-row");
      await page.getByRole("checkbox", { name: "Storage" }).check();
      await page.getByRole("button", { name: "Start" }).click();
      // Shown once the socket is open, which the console answers only after the storage subscribed.
      await page.getByText("No Traced elements received yet").waitFor();
      await s3.putObject(stack.admin, "tools-bucket", "storage-row.txt", "twelve bytes");
      const call = page.locator("tr", { hasText: "storage.WriteMetadata" }).filter({
        hasText: "tools-bucket/storage-row.txt",
      });
      await call.waitFor();
      const cells = await call.locator("td").allInnerTexts();
      assert.deepEqual([cells[2], cells[5]], ["–", "12 B"], `status and upload of ${cells.join(" | ")}`);
      await page.getByRole("button", { name: "Stop" }).click();
    });

    await t.step("error logs: a storage error shows with its details and can be highlighted", async () => {
      await page.goto("/logs");
      await page.getByTestId("error-logs").waitFor();
      await s3.setConfigKV(stack.admin, "logger_webhook:nowhere endpoint=http://127.0.0.1:9/nothing");
      stack.storage.streams.log.publish({
        level: "INFO",
        time: new Date().toISOString(),
        message: "trigger a delivery",
      });
      const line = page.getByTestId("error-logs").locator("div[data-level=ERROR]", {
        hasText: 'logger_webhook target "nowhere": offline',
      });
      await line.waitFor();
      assert.match(await line.innerText(), /^Time: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/m);
      await page.getByPlaceholder("Highlight Line").fill("nowhere");
      assert.equal(await line.getAttribute("data-highlighted"), "true");
      await s3.delConfigKV(stack.admin, "logger_webhook:nowhere");
    });

    await t.step(
      "audit logs: the CLI upload is found by bucket; a filter matching nothing says so",
      async () => {
        await page.getByRole("link", { name: "Audit Logs" }).click();
        await page.waitForURL("**/logs?tab=audit");
        await page.getByRole("button", { name: "Advanced Filters" }).click();
        assert.match(await page.getByTestId("wildcard-hint").innerText(), /\* matches any characters/);
        await page.getByRole("textbox", { name: "Bucket" }).fill("tools-bucket");
        await page.getByRole("textbox", { name: "API Name" }).fill("PutObject");
        // Delivery to the log search is asynchronous: ask again, as a user would, until the upload shows.
        await eventually("the upload in the audit log", async () => {
          await page.getByRole("button", { name: "Get Information" }).click();
          return await page.locator("tr", { hasText: "cli/hello.txt" }).waitFor({ timeout: 300 }).then(
            () => true,
            () => false,
          );
        });
        assert.match(
          await page.locator("tr", { hasText: "cli/hello.txt" }).innerText(),
          /PutObject[\s\S]*tools-bucket[\s\S]*200 OK/,
        );
        assert.equal(
          await page.getByRole("columnheader", { name: "Time to Response NS" }).count(),
          0,
          "off by default",
        );
        await page.getByRole("textbox", { name: "Bucket" }).fill("no.such.*bucket");
        await page.getByRole("button", { name: "Get Information" }).click();
        await page.getByText("There is no information with this criteria").waitFor();
      },
    );

    await t.step("watch: an upload arrives while the bucket is watched", async () => {
      await page.goto("/watch");
      await page.getByText("No Changes at this time").waitFor();
      assert.equal(
        await page.getByRole("button", { name: "Start" }).isDisabled(),
        true,
        "a bucket must be chosen",
      );
      await page.getByLabel("Bucket").selectOption("tools-bucket");
      await page.getByLabel("Prefix").fill("watched/");
      await page.getByRole("button", { name: "Start" }).click();
      await page.getByRole("button", { name: "Stop" }).waitFor();
      // Stop shows while the socket connects; it opens once the storage listens.
      await eventually("the watch to subscribe", () => stack.storage.streams.events.subscriberCount > 0);
      await s3.putObject(stack.admin, "tools-bucket", "watched/new.txt", "12345");
      const row = page.locator("tr", { hasText: "tools-bucket/watched/new.txt" });
      await row.waitFor();
      assert.match(await row.innerText(), /ObjectCreated:Put/);
      await page.getByRole("button", { name: "Stop" }).click();
    });

    await t.step("heal: a corrupted object shows red in the chart; the rest is green", async () => {
      await s3.putObject(stack.admin, "tools-bucket", "big.bin", new Uint8Array(300 * 1024).fill(7));
      const stem = `${stack.dataDir}/buckets/tools-bucket/objects/${keyPathStem("big.bin")}`;
      const dir = stem.slice(0, stem.lastIndexOf("/"));
      const name = stem.slice(stem.lastIndexOf("/") + 1);
      const file = [...Deno.readDirSync(dir)].find((e) =>
        e.name.startsWith(name) && e.name.endsWith(".data")
      )!.name;
      const handle = await Deno.open(`${dir}/${file}`, { write: true });
      await handle.write(new Uint8Array([1, 2, 3]));
      handle.close();
      await page.goto("/heal");
      await page.getByLabel("Bucket").selectOption("tools-bucket");
      await page.getByLabel("Recursive").check();
      await page.getByRole("button", { name: "Start" }).click();
      await page.getByText("Heal finished.").waitFor();
      assert.ok(Number(await page.getByTestId("bar-red-after").getAttribute("data-percent")) > 0);
      assert.ok(Number(await page.getByTestId("bar-green-before").getAttribute("data-percent")) > 50);
      assert.match(
        await page.getByTestId("heal-problems").innerText(),
        /tools-bucket\/big\.bin — the data does not match its recorded checksum/,
      );
      const objects = (await s3.listAllObjects(stack.admin, "tools-bucket")).objects.length;
      assert.match(
        await page.getByTestId("heal-stats").innerText(),
        new RegExp(`Objects healed\\s*0 / ${objects}`),
        "nothing could be healed on one drive",
      );
    });

    await t.step("diagnostic: start, wait, download the report", async () => {
      await page.goto("/health-info");
      assert.equal(await page.getByRole("button", { name: "Download" }).isDisabled(), true);
      await page.getByRole("button", { name: "Start Diagnostic" }).click();
      await page.getByText("Diagnostic file is ready to be downloaded.").waitFor({ timeout: 30_000 });
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: "Download" }).click(),
      ]);
      assert.match(download.suggestedFilename(), /^health-info_\d{8}T\d{6}Z\.json$/);
      const report = JSON.parse(await Deno.readTextFile((await download.path())!));
      assert.equal(report.version, "3");
      assert.ok(report.sys.meminfo[0].total > 0);
    });

    await t.step("an unauthenticated WebSocket upgrade is refused (1006)", async () => {
      const anonymous = await browser.context.browser()!.newContext({ baseURL: stack.consoleUrl });
      const other = await anonymous.newPage();
      try {
        await other.goto("/login");
        const code = await other.evaluate(() =>
          new Promise<number>((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/ws/trace`);
            ws.onclose = (event) => resolve(event.code);
          })
        );
        assert.equal(code, 1006);
      } finally {
        await anonymous.close();
      }
    });
  } finally {
    await browser.close();
    await stack.close();
    await Deno.remove(home, { recursive: true });
  }
});
