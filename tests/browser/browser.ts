/**
 * Shared Playwright setup for every browser test: Debian's Chromium (Playwright never downloads a browser),
 * a fresh profile per test, a record of every request the page makes so tests can assert that nothing
 * leaves the console's own origin, and the guard every browser test relies on: any uncaught page error or
 * console error on any page of the context fails the test when the session closes, unless the test said
 * beforehand that it expects that message (`expectConsoleError`).
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
  /**
   * Declares a console error the test provokes on purpose (for example Chromium's "Failed to load resource:
   * the server responded with a status of 409" after a refused call); each pattern allows one message.
   */
  expectConsoleError(pattern: RegExp): void;
  /** Errors seen so far that no expectation allowed. */
  unexpectedErrors(): string[];
  /** Closes the browser; throws when the page logged an error or threw one that no test expected. */
  close(): Promise<void>;
}

/** `extraFlags` adds Chromium switches (the TLS tests trust their own certificate with one). */
export async function openBrowser(
  stack: Pick<TestStack, "consoleUrl">,
  extraFlags: string[] = [],
): Promise<BrowserSession> {
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: [...CHROMIUM_FLAGS, ...extraFlags],
  });
  const context = await browser.newContext({ baseURL: stack.consoleUrl });
  const requests: string[] = [];
  const errors: string[] = [];
  const expected: RegExp[] = [];
  const record = (error: string) => {
    const allowed = expected.findIndex((pattern) => pattern.test(error));
    if (allowed >= 0) expected.splice(allowed, 1);
    else errors.push(error);
  };
  context.on("page", (opened) => {
    opened.on("pageerror", (error) => record(`uncaught in ${opened.url()}: ${error.stack ?? error.message}`));
    opened.on("console", (message) => {
      if (message.type() === "error") record(`console error in ${opened.url()}: ${message.text()}`);
    });
  });
  const page = await context.newPage();
  page.on("request", (request) => requests.push(request.url()));
  // A server-rendered control is visible before its island hydrates, and a file chosen or a click made in
  // that gap is lost: navigation in tests therefore returns only once every island on the page is live.
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await waitForIslands(page);
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await waitForIslands(page);
    return response;
  };
  page.setDefaultTimeout(15_000);
  return {
    browser,
    context,
    page,
    requests,
    expectConsoleError: (pattern) => expected.push(pattern),
    unexpectedErrors: () => [...errors],
    close: async () => {
      await context.close();
      await browser.close();
      if (errors.length > 0) {
        throw new Error(`the page reported ${errors.length} error(s):\n${errors.join("\n")}`);
      }
    },
  };
}

/** Waits until every island on the page is hydrated (islands/client.ts marks each one), so clicks take effect. */
export async function waitForIslands(page: Page): Promise<void> {
  await page.waitForFunction(
    () => [...document.querySelectorAll("[data-island]")].every((el) => el.hasAttribute("data-hydrated")),
    null,
    { polling: 50 },
  );
}

/** Signs in through the real form. */
export async function signInThroughForm(page: Page, accessKey: string, secretKey: string): Promise<void> {
  await page.goto("/login");
  await page.getByPlaceholder("Enter Username").fill(accessKey);
  await page.getByPlaceholder("Enter Password").fill(secretKey);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => !url.pathname.endsWith("/login"));
  await waitForIslands(page);
}

/** Scripts a page loads besides the keyboard shortcuts' small one, which every signed-in page has. */
export async function scriptsBesidesShortcuts(page: Page): Promise<string[]> {
  const sources = await page.locator("script[src]").evaluateAll((all) =>
    all.map((s) => (s as HTMLScriptElement).src)
  );
  return sources.filter((src) => !/\/shortcuts-[\w-]+\.js$/.test(src));
}
