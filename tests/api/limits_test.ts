/**
 * Limits that hold, on both listeners (console and embedded storage): what an anonymous client can send is
 * bounded and refused with 413 before it is buffered, the connection does not stay open after that, and
 * half-sent requests and idle connections are closed by the header, idle and body-progress timeouts.
 */
import assert from "node:assert/strict";
import { type ConsoleClient, consoleRoutes, signInAsRoot, startStack } from "../helpers.ts";

const TIMEOUTS = {
  CONSOLE_HEADER_TIMEOUT: "400ms",
  CONSOLE_IDLE_TIMEOUT: "400ms",
  CONSOLE_BODY_TIMEOUT: "400ms",
};
/** Generous bound for "closed promptly" under a loaded machine, far below the seconds a stuck connection shows. */
const PROMPTLY_MS = 4000;

/** Sends raw bytes and reads until the server closes; the time to close and what was answered. */
async function rawExchange(
  url: string,
  bytes: string,
  waitMs = 10_000,
): Promise<{ closedAfterMs: number; answer: string; closed: boolean }> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  const started = performance.now();
  if (bytes) await conn.write(new TextEncoder().encode(bytes));
  let answer = "";
  let closed = false;
  const giveUp = setTimeout(() => conn.close(), waitMs);
  try {
    const buffer = new Uint8Array(16 * 1024);
    while (true) {
      const n = await conn.read(buffer);
      if (n === null) {
        closed = true;
        break;
      }
      answer += new TextDecoder().decode(buffer.subarray(0, n));
    }
  } catch {
    closed = true; // reset by the server
  } finally {
    clearTimeout(giveUp);
    try {
      conn.close();
    } catch { /* already closed */ }
  }
  return { closedAfterMs: performance.now() - started, answer, closed };
}

/** An endless request body counting what the server pulled; resolves the response or the network error. */
async function endlessUpload(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number | null; sent: number }> {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).fill(97);
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent > 512 * 1024 * 1024) return controller.close(); // a bound for the test itself
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  try {
    const res = await fetch(url, { method: "POST", ...init, body, duplex: "half" } as RequestInit);
    await res.body?.cancel();
    return { status: res.status, sent };
  } catch {
    return { status: null, sent };
  }
}

Deno.test("console: every route an anonymous client can reach refuses a large body with 413, unread", async () => {
  const stack = await startStack();
  try {
    const routes = (await consoleRoutes(stack.deps)).filter((r) =>
      r.method !== "GET" && r.method !== "ALL" && !r.path.includes("*")
    );
    assert.ok(
      routes.some((r) => r.path === "/theme") && routes.some((r) => r.path === "/api/v1/login"),
      "routes are enumerated from the app",
    );
    const body = "x".repeat(17 * 1024);
    for (const route of routes) {
      const path = route.path.replace(/:[A-Za-z_]+(\{[^}]*\})?/g, "x");
      const res = await fetch(stack.consoleUrl + path, {
        method: route.method,
        body,
        headers: { "content-type": "application/json", origin: stack.consoleUrl },
      });
      await res.body?.cancel();
      assert.equal(res.status, 413, `${route.method} ${path}`);
    }
  } finally {
    await stack.close();
  }
});

Deno.test("console and storage: a declared 256 MB body is refused at once and the connection closes", async () => {
  const stack = await startStack();
  try {
    for (
      const [name, url, path] of [["console /theme", stack.consoleUrl, "/theme"], [
        "console sign-in",
        stack.consoleUrl,
        "/api/v1/login",
      ], ["storage STS", stack.storage.url, "/"]]
    ) {
      const head =
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 268435456\r\n\r\n`;
      const { answer, closedAfterMs, closed } = await rawExchange(url, head + "Action=AssumeRole&");
      assert.match(answer, /^HTTP\/1\.1 413 /, `${name}: ${answer.slice(0, 80)}`);
      assert.ok(
        closed && closedAfterMs < PROMPTLY_MS,
        `${name}: closed after ${Math.round(closedAfterMs)} ms`,
      );
    }
  } finally {
    await stack.close();
  }
});

Deno.test("console and storage: an endless body without a length is cut off after a small bound", async () => {
  const stack = await startStack();
  try {
    for (
      const [name, url] of [["console sign-in", `${stack.consoleUrl}/api/v1/login`], [
        "console theme",
        `${stack.consoleUrl}/theme`,
      ], ["storage STS", `${stack.storage.url}/`]]
    ) {
      const { status, sent } = await endlessUpload(url, {
        headers: { "content-type": "application/x-www-form-urlencoded", origin: stack.consoleUrl },
      });
      assert.ok(status === 413 || status === null, `${name}: ${status}`);
      // Whatever the kernel's socket buffers took, far less than the 512 MiB the client would send.
      assert.ok(sent < 32 * 1024 * 1024, `${name}: the client could send ${sent} bytes`);
    }
  } finally {
    await stack.close();
  }
});

Deno.test("signed-in API bodies have their larger bound", async () => {
  const stack = await startStack();
  try {
    const client: ConsoleClient = await signInAsRoot(stack);
    const res = await client.request("POST", "/api/v1/buckets", { name: "x".repeat(2 * 1024 * 1024) });
    assert.equal(res.status, 413);
    await res.body?.cancel();
    const ok = await client.request("POST", "/api/v1/buckets", {
      name: "within-limit",
      padding: "x".repeat(64 * 1024),
    });
    assert.notEqual(ok.status, 413, "64 KiB is fine with a session");
    await ok.body?.cancel();
  } finally {
    await stack.close();
  }
});

async function assertTimeouts(name: string, url: string) {
  const silent = await rawExchange(url, "");
  assert.ok(
    silent.closed && silent.closedAfterMs < PROMPTLY_MS,
    `${name}: a silent connection closed after ${Math.round(silent.closedAfterMs)} ms`,
  );
  const halfHeaders = await rawExchange(url, "GET /healthz HTTP/1.1\r\nHost: x\r\n");
  assert.ok(
    halfHeaders.closed && halfHeaders.closedAfterMs < PROMPTLY_MS,
    `${name}: half-sent headers closed after ${Math.round(halfHeaders.closedAfterMs)} ms`,
  );
  const idle = await rawExchange(url, "GET /minio/health/live HTTP/1.1\r\nHost: x\r\n\r\n");
  assert.match(idle.answer, /^HTTP\/1\.1 \d{3} /, `${name}: answered before going idle`);
  assert.ok(
    idle.closed && idle.closedAfterMs < PROMPTLY_MS,
    `${name}: an idle kept-alive connection closed after ${Math.round(idle.closedAfterMs)} ms`,
  );
  // A route that reads its body (console sign-in, storage STS), sent a tenth of what it declared.
  const path = name === "console" ? "/api/v1/login" : "/";
  const halfBody = await rawExchange(
    url,
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nAction=AssumeRole`,
  );
  assert.ok(
    halfBody.closed && halfBody.closedAfterMs < PROMPTLY_MS,
    `${name}: a stalled body closed after ${Math.round(halfBody.closedAfterMs)} ms`,
  );
}

Deno.test("console and storage: half-sent requests and idle connections are closed by the timeouts", async () => {
  const stack = await startStack({ env: TIMEOUTS });
  try {
    await assertTimeouts("console", stack.consoleUrl);
    await assertTimeouts("storage", stack.storage.url);
    // A request that keeps its pace is not cut, however long it takes in total.
    let ticks = 0;
    const slowButSteady = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        controller.enqueue(new TextEncoder().encode(" "));
        if (++ticks === 12) controller.close();
      },
    });
    const res = await fetch(`${stack.consoleUrl}/api/v1/login`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: stack.consoleUrl },
      body: slowButSteady,
      duplex: "half",
    } as RequestInit);
    assert.equal(
      res.status,
      400,
      "a 1.2 s body sent in steady pieces reaches the handler (empty JSON → 400)",
    );
    await res.body?.cancel();
  } finally {
    await stack.close();
  }
});
