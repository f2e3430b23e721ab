/**
 * Shared Playwright setup for browser tests: Debian's Chromium (Playwright never downloads a browser),
 * a fresh profile per test, and a record of every request the page makes so tests can assert that nothing
 * leaves the console's own origin.
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import type { TestStack } from "../helpers.ts";

const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Every URL the page requested. */
  requests: string[];
  close(): Promise<void>;
}

export async function openBrowser(stack: TestStack): Promise<BrowserSession> {
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_FLAGS });
  const context = await browser.newContext({ baseURL: stack.consoleUrl });
  const page = await context.newPage();
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.setDefaultTimeout(15_000);
  return {
    browser,
    context,
    page,
    requests,
    close: async () => {
      await context.close();
      await browser.close();
    },
  };
}

/** Signs in through the real form. */
export async function signInThroughForm(page: Page, accessKey: string, secretKey: string): Promise<void> {
  await page.goto("/login");
  await page.getByPlaceholder("Enter Username").fill(accessKey);
  await page.getByPlaceholder("Enter Password").fill(secretKey);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => !url.pathname.endsWith("/login"));
}
