/**
 * The console calling a storage server over HTTPS, as `main.ts` starts it: an external server signed by a
 * private CA is trusted through CONSOLE_MINIO_CA_FILE (and without it the sign-in page says the backend cannot
 * be reached while the log says why); an embedded storage whose certificate the console could never verify
 * stops the start with the reason and what to do, instead of failing every sign-in later. An upload the console
 * streams to the embedded storage goes on a TLS socket of its own, which trusts the same CAs.
 */
import assert from "node:assert/strict";
import type { UploadedPart, UploadSession } from "../../server/lib/contract/objects.ts";
import { ConsoleClient } from "../helpers.ts";
import { DECK_ROOT, exitOf, ready, spawnDeck, stop } from "../deck_process.ts";
import { freePort, spawnStorage } from "../storage_process.ts";
import { makeCertificates, makeSelfSignedCaCertificate, type TestCertificates } from "../tls_certs.ts";

/** A standalone storage on HTTPS (its --certs-dir) and a Deck pointed at it with these settings. */
async function deckBeforeTlsStorage(certs: TestCertificates, env: Record<string, string>) {
  const dataDir = await Deno.makeTempDir({ prefix: "deck-tls-ext-" });
  const storage = await spawnStorage(`${dataDir}/storage`, await freePort(), DECK_ROOT, {}, {
    flags: ["--certs-dir", certs.certsDir],
  });
  assert.match(storage.url, /^https:\/\/127\.0\.0\.1:\d+$/, "the standalone storage serves HTTPS");
  const deck = spawnDeck(`${dataDir}/console`, { console: await freePort(), storage: await freePort() }, {
    CONSOLE_MINIO_SERVER: storage.url,
    CONSOLE_LOG_SEARCH: "off",
    ...env,
  });
  return {
    deck,
    close: async () => {
      await stop(deck);
      storage.child.kill("SIGTERM");
      await storage.child.status;
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    },
  };
}

Deno.test("an external server on HTTPS with a private CA: trusted through CONSOLE_MINIO_CA_FILE", async () => {
  const certs = await makeCertificates();
  const { deck, close } = await deckBeforeTlsStorage(certs, { CONSOLE_MINIO_CA_FILE: certs.caFile });
  try {
    await ready(deck);
    const root = new ConsoleClient(deck.consoleUrl);
    const signIn = await root.request("POST", "/api/v1/login", DECK_ROOT);
    assert.equal(signIn.status, 201, await signIn.text());
    await root.json("POST", "/api/v1/buckets", { name: "over-tls" }, 201);
    const buckets = await root.json<{ buckets: { name: string }[] }>(
      "GET",
      "/api/v1/buckets",
      undefined,
      200,
    );
    assert.deepEqual(buckets.buckets.map((b) => b.name), ["over-tls"]);
  } finally {
    await close();
    await certs.remove();
  }
});

Deno.test("without the CA file the sign-in page says the backend cannot be reached, and the log says why", async () => {
  const certs = await makeCertificates();
  const { deck, close } = await deckBeforeTlsStorage(certs, {});
  try {
    await ready(deck);
    const page = await fetch(`${deck.consoleUrl}/login`);
    assert.equal(page.status, 503);
    assert.match(await page.text(), /the backend cannot be reached/);
    assert.match(deck.output(), /the storage server cannot be reached.*certificate/i);
  } finally {
    await close();
    await certs.remove();
  }
});

Deno.test("an embedded storage certificate the console cannot verify stops the start, saying what to do", async (t) => {
  const selfSignedCa = await makeSelfSignedCaCertificate();
  const empty = await Deno.makeTempDir({ prefix: "deck-certs-empty-" });
  try {
    for (
      const [name, certsDir, expected] of [
        [
          "a self-signed CA certificate, as certgen makes without -no-ca",
          selfSignedCa.certsDir,
          /certgen -no-ca/,
        ],
        ["no certificate in the directory", empty, /public\.crt/],
      ] as const
    ) {
      await t.step(name, async () => {
        const dataDir = await Deno.makeTempDir({ prefix: "deck-tls-bad-" });
        const deck = spawnDeck(dataDir, { console: await freePort(), storage: await freePort() }, {
          CONSOLE_STORAGE_CERTS_DIR: certsDir,
          CONSOLE_LOG_SEARCH: "off",
        });
        try {
          const status = await exitOf(deck);
          assert.equal(status?.code, 1, deck.output());
          assert.match(deck.output(), /Deck cannot start: CONSOLE_STORAGE_CERTS_DIR: /);
          assert.match(deck.output(), expected);
        } finally {
          await stop(deck); // already ended unless the assertion above failed
          await Deno.remove(dataDir, { recursive: true }).catch(() => {});
        }
      });
    }
  } finally {
    await selfSignedCa.remove();
    await Deno.remove(empty, { recursive: true });
  }
});

Deno.test("the embedded storage on a private CA: a part the console streams to it arrives, on a socket trusting its CAs", async () => {
  const certs = await makeCertificates();
  const dataDir = await Deno.makeTempDir({ prefix: "deck-tls-upload-" });
  const deck = spawnDeck(dataDir, { console: await freePort(), storage: await freePort() }, {
    CONSOLE_STORAGE_CERTS_DIR: certs.certsDir,
    CONSOLE_LOG_SEARCH: "off",
  });
  try {
    await ready(deck);
    const root = new ConsoleClient(deck.consoleUrl);
    assert.equal((await root.request("POST", "/api/v1/login", DECK_ROOT)).status, 201);
    await root.json("POST", "/api/v1/buckets", { name: "streamed" }, 201);
    const key = "über 日本 + % # ? 🚀.bin";
    const data = new Uint8Array(256 * 1024).map((_, i) => (i * 13) & 0xff);
    const session = await root.json<UploadSession>("POST", "/api/v1/buckets/streamed/uploads", {
      key,
      size: data.length,
    }, 201);
    const base = `/api/v1/buckets/streamed/uploads/${session.upload_id}`;
    const sent = await fetch(`${deck.consoleUrl}${base}/parts/1?key=${encodeURIComponent(key)}`, {
      method: "PUT",
      body: data,
      headers: { cookie: root.cookie, origin: deck.consoleUrl },
    });
    assert.equal(sent.status, 200, await sent.clone().text());
    const part = await sent.json() as UploadedPart;
    await root.json("POST", `${base}/complete`, { key, parts: [part] }, 200);
    const back = await fetch(
      `${deck.consoleUrl}/api/v1/buckets/streamed/objects/download?prefix=${encodeURIComponent(key)}`,
      { headers: { cookie: root.cookie } },
    );
    assert.equal(back.status, 200);
    assert.deepEqual(new Uint8Array(await back.arrayBuffer()), data);
  } finally {
    await stop(deck);
    await certs.remove();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
