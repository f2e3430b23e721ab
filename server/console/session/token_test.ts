import assert from "node:assert/strict";
import { createSessionKey, openSession, sealSession, type SessionData } from "./token.ts";

const data: SessionData = {
  accessKey: "TEMPKEY",
  secretKey: "tempsecret",
  sessionToken: "tok",
  account: "alice",
  distributed: true,
  sso: false,
  expiresAt: 2_000_000_000_000,
};

Deno.test("a sealed session opens with the same key and hides its contents", async () => {
  const key = await createSessionKey({ passphrase: "pass", salt: "salt" });
  const token = await sealSession(key, data);
  assert.doesNotMatch(token, /alice|tempsecret|TEMPKEY/);
  assert.deepEqual(await openSession(key, token, Date.now()), data);
  const sameSettings = await createSessionKey({ passphrase: "pass", salt: "salt" });
  assert.deepEqual(
    await openSession(sameSettings, token, Date.now()),
    data,
    "a restart with the same settings keeps sessions",
  );
});

Deno.test("forged, tampered, foreign-key and expired tokens are refused", async () => {
  const key = await createSessionKey(null);
  const token = await sealSession(key, data);
  const flipped = token.slice(0, 20) + (token[20] === "A" ? "B" : "A") + token.slice(21);
  assert.equal(await openSession(key, flipped, Date.now()), null);
  assert.equal(await openSession(await createSessionKey(null), token, Date.now()), null);
  assert.equal(await openSession(key, token, data.expiresAt), null);
  assert.equal(await openSession(key, "not a token!", Date.now()), null);
  assert.equal(await openSession(key, "", Date.now()), null);
});
