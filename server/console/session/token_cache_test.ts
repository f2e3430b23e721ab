import assert from "node:assert/strict";
import { createSessionKey, openSession, sealSession, type SessionData } from "./token.ts";

const data = (expiresAt: number): SessionData => ({
  accessKey: "TEMPKEY",
  secretKey: "tempsecret",
  sessionToken: "tok",
  account: "alice",
  distributed: true,
  sso: false,
  expiresAt,
});

Deno.test("an opened session is remembered, yet still expires and never opens under another key", async () => {
  const key = await createSessionKey(null);
  const other = await createSessionKey(null);
  const token = await sealSession(key, data(10_000));
  assert.equal((await openSession(key, token, 1_000))?.account, "alice");
  assert.equal((await openSession(key, token, 2_000))?.account, "alice", "remembered");
  assert.equal(await openSession(other, token, 2_000), null, "another key does not open it");
  assert.equal(await openSession(key, token, 10_000), null, "expiry is checked on every use");
});
