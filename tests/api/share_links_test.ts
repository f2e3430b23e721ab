/**
 * Share links against the people who hold them: resending a link with a wrong signature slows down that
 * sender only, never the link for its other recipients (who all reach the storage through the console's one
 * address), and the host a link names comes from X-Forwarded-Host only when the console trusts its proxy.
 * And a link chosen to end on a day ends at its last second, however long the request took to arrive.
 */
import assert from "node:assert/strict";
import { makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { createShareLink, listShareLinks } from "../../server/console/services/share_links.ts";
import { signInAsRoot, startStack, type TestStack } from "../helpers.ts";

const KEY = "reports/Q3 résumé 🎉 + % # ?.txt";
const SHARE = `/api/v1/buckets/files/objects/share?prefix=${
  encodeURIComponent(KEY)
}&version_id=null&expires=3600000ms`;

async function seeded(env: Record<string, string> = {}): Promise<TestStack> {
  const stack = await startStack({ env });
  await makeBucket(stack.admin, "files");
  await putObject(stack.admin, "files", KEY, "quarterly numbers");
  return stack;
}

Deno.test("share link: wrong signatures slow their sender down, the link keeps working for everyone else", async () => {
  const stack = await seeded();
  // The attacker comes from another address (all of 127/8 is this machine).
  const elsewhere = Deno.createHttpClient({ localAddress: "127.0.0.2" });
  try {
    const root = await signInAsRoot(stack);
    const link = await root.json<string>("GET", SHARE, undefined, 200);
    const signature = new URL(link).searchParams.get("X-Amz-Signature")!;
    const forged = link.replace(signature, signature.replace(/^./, (c) => (c === "0" ? "1" : "0")));

    const attacker: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await fetch(forged, { client: elsewhere });
      attacker.push(res.status);
      if (res.status === 429) {
        assert.match(res.headers.get("retry-after") ?? "", /^\d+$/);
        assert.match(await res.text(), /Too many attempts with a wrong link/);
      } else {
        assert.equal(res.status, 403);
        assert.match(await res.text(), /This link has expired or was revoked/);
      }
    }
    assert.deepEqual(attacker.slice(0, 3), [403, 403, 403], "the first mistakes are answered");
    assert.ok(attacker.slice(4).every((s) => s === 429), `then the sender must wait: ${attacker}`);

    for (let i = 0; i < 20; i++) {
      const res = await fetch(link);
      assert.equal(res.status, 200, `recipient's request ${i + 1}`);
      assert.equal(await res.text(), "quarterly numbers");
    }
    const stillSlowed = await fetch(link, { client: elsewhere });
    await stillSlowed.body?.cancel();
    assert.equal(stillSlowed.status, 429, "the sender waits even with the right link until its time is up");
  } finally {
    elsewhere.close();
    await stack.close();
  }
});

Deno.test("share link: the host it names comes from X-Forwarded-Host only behind a trusted proxy", async (t) => {
  const forwarded = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" };
  await t.step("CONSOLE_TRUST_FORWARDED=off: the Host header", async () => {
    const stack = await seeded();
    try {
      const root = await signInAsRoot(stack);
      const res = await root.request("GET", SHARE, undefined, forwarded);
      const link = await res.json() as string;
      assert.ok(link.startsWith(`${stack.consoleUrl}/shared/files/reports/`), link);
      assert.equal((await fetch(link)).status, 200);
    } finally {
      await stack.close();
    }
  });
  await t.step("CONSOLE_TRUST_FORWARDED=on: the proxy's host and scheme", async () => {
    const stack = await seeded({ CONSOLE_TRUST_FORWARDED: "on" });
    try {
      const root = await signInAsRoot(stack);
      const res = await root.request("GET", SHARE, undefined, forwarded);
      const link = await res.json() as string;
      assert.ok(link.startsWith("https://evil.example/shared/files/reports/"), link);
    } finally {
      await stack.close();
    }
  });
});

Deno.test("share link: one chosen to end on a day ends at 23:59:59 of it, however long the request took", async () => {
  const stack = await seeded();
  try {
    const end = new Date();
    end.setDate(end.getDate() + 2);
    end.setHours(23, 59, 59, 0);
    // The browser measures the duration on its clock; the request reaches the console almost a second later.
    const measured = Date.now();
    const arrived = measured + 999;
    await createShareLink(
      stack.admin,
      {
        internal: stack.storage.url,
        public: stack.storage.url,
        consoleBase: `${stack.consoleUrl}/`,
        region: "",
      },
      { bucket: "files", key: KEY, expiresMs: end.getTime() - measured, viaConsole: true },
      arrived,
    );
    const [link] = await listShareLinks(stack.admin);
    assert.equal(link.expires, end.toISOString());
  } finally {
    await stack.close();
  }
});
