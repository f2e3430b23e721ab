/**
 * Behind a TLS-terminating proxy Deck itself speaks plain HTTP: the proxy's `X-Forwarded-Proto: https` must
 * make the session cookie Secure and send HSTS, but only with CONSOLE_TRUST_FORWARDED=on (anyone can send the
 * header to a console reached directly), and never over plain HTTP.
 */
import assert from "node:assert/strict";
import { startStack } from "../helpers.ts";

interface Seen {
  sessionCookie: string;
  themeCookie: string;
  hsts: string | null;
  pageHsts: string | null;
}

async function signInThrough(
  consoleUrl: string,
  root: { accessKey: string; secretKey: string },
  proto?: string,
) {
  const forwarded: Record<string, string> = proto ? { "x-forwarded-proto": proto } : {};
  const login = await fetch(`${consoleUrl}/api/v1/login`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: consoleUrl, ...forwarded },
    body: JSON.stringify(root),
  });
  assert.equal(login.status, 201, await login.text());
  const theme = await fetch(`${consoleUrl}/theme`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: consoleUrl, ...forwarded },
    body: "theme=dark&back=/login",
    redirect: "manual",
  });
  await theme.body?.cancel();
  const page = await fetch(`${consoleUrl}/login`, { headers: forwarded });
  await page.body?.cancel();
  return {
    sessionCookie: login.headers.getSetCookie().find((c) => c.startsWith("token=")) ?? "",
    themeCookie: theme.headers.getSetCookie().find((c) => c.startsWith("theme=")) ?? "",
    hsts: login.headers.get("strict-transport-security"),
    pageHsts: page.headers.get("strict-transport-security"),
  } satisfies Seen;
}

const isSecure = (cookie: string) => /;\s*Secure(;|$)/i.test(cookie);

Deno.test("with CONSOLE_TRUST_FORWARDED=on, X-Forwarded-Proto: https makes cookies Secure and sends HSTS", async () => {
  const stack = await startStack({ env: { CONSOLE_TRUST_FORWARDED: "on" } });
  try {
    const https = await signInThrough(stack.consoleUrl, stack.storage.root, "https");
    assert.ok(isSecure(https.sessionCookie), `session cookie: ${https.sessionCookie}`);
    assert.ok(isSecure(https.themeCookie), `theme cookie: ${https.themeCookie}`);
    assert.equal(https.hsts, "max-age=31536000");
    assert.equal(https.pageHsts, "max-age=31536000", "pages carry HSTS too");

    // The proxy says the browser used plain HTTP (or says nothing): no Secure cookie it could not send back.
    for (const proto of ["http", undefined]) {
      const plain = await signInThrough(stack.consoleUrl, stack.storage.root, proto);
      assert.ok(plain.sessionCookie.startsWith("token="), `a session cookie (${proto})`);
      assert.ok(!isSecure(plain.sessionCookie), `${proto}: ${plain.sessionCookie}`);
      assert.equal(plain.hsts, null, `${proto}: no HSTS over plain HTTP`);
    }
  } finally {
    await stack.close();
  }
});

Deno.test("without CONSOLE_TRUST_FORWARDED, X-Forwarded-Proto is ignored: no Secure cookie, no HSTS", async () => {
  const stack = await startStack();
  try {
    const seen = await signInThrough(stack.consoleUrl, stack.storage.root, "https");
    assert.ok(seen.sessionCookie.startsWith("token="), "signed in");
    assert.ok(!isSecure(seen.sessionCookie), seen.sessionCookie);
    assert.ok(!isSecure(seen.themeCookie), seen.themeCookie);
    assert.equal(seen.hsts, null);
    assert.equal(seen.pageHsts, null);
  } finally {
    await stack.close();
  }
});
