import assert from "node:assert/strict";
import { createSessionKey } from "./token.ts";
import { openReason, sealReason, storageRefusal } from "./sso_reasons.ts";

Deno.test("sso reasons: MinIO's refusals get their own advice; others are quoted", () => {
  assert.match(
    storageRefusal("groups claim missing from the JWT token, credentials will not be generated").detail,
    /no 'groups' claim/,
  );
  assert.match(
    storageRefusal("None of the given policies (`a,b`) are defined, credentials will not be generated")
      .detail,
    /names no policy that exists on the storage server \(a,b\)/,
  );
  assert.match(storageRefusal("something else").detail, /refused its token: something else$/);
  assert.equal(storageRefusal("x").status, 401);
});

Deno.test("sso reasons: only texts this console sealed, and only for five minutes", async () => {
  const key = await createSessionKey(null);
  const sealed = await sealReason(key, "the reason", 1000);
  assert.equal(await openReason(key, sealed, 1000 + 60_000), "the reason");
  assert.equal(await openReason(key, sealed, 1000 + 6 * 60_000), null);
  assert.equal(await openReason(key, "made-up", 1000), null);
  assert.equal(await openReason(key, undefined, 1000), null);
});
