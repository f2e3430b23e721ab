/**
 * Password guessing straight at the storage port is slowed per access key and client address, and correct
 * requests are not: after a few wrong signatures the pair gets 503 SlowDown before any signature is checked,
 * while other keys keep working at full speed and the guessed key's first success clears its record.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { startStorage } from "./fixture.ts";

Deno.test("wrong signatures are throttled per access key and address; correct requests are not", async () => {
  const f = await startStorage();
  try {
    await s3.addUser(f.root, "target", "right-secret-1");
    await s3.setPolicy(f.root, ["readwrite"], "target", false);
    const codes: string[] = [];
    const started = performance.now();
    for (let i = 0; i < 200; i++) {
      try {
        await s3.listBuckets(f.as("target", `guess-${i}-secret`));
        codes.push("OK");
      } catch (error) {
        codes.push((error as { code: string }).code);
      }
    }
    const elapsed = performance.now() - started;
    const guessesChecked = codes.filter((c) => c === "SignatureDoesNotMatch").length;
    assert.ok(guessesChecked <= 8, `only a handful of guesses reach the signature check: ${guessesChecked}`);
    assert.ok(codes.filter((c) => c === "SlowDown").length >= 190, "the rest are refused unchecked");
    assert.ok(elapsed < 20_000, "refusals are immediate (no connection is held)");
    // STS and presigned guesses count the same; the refusal carries Retry-After.
    await assert.rejects(
      s3.assumeRole(f.as("target", "another-guess")),
      (e: { code: string }) => e.code === "SlowDown" || e.code === "AccessDenied",
    );
    // Other keys from the same address are not slowed at all.
    const rootStarted = performance.now();
    for (let i = 0; i < 50; i++) await s3.listBuckets(f.root);
    assert.ok(performance.now() - rootStarted < 10_000);
    await s3.addUser(f.root, "bystander", "bystander-secret");
    await s3.setPolicy(f.root, ["readwrite"], "bystander", false);
    assert.deepEqual(await s3.listBuckets(f.as("bystander", "bystander-secret")), []);
  } finally {
    await f.close();
  }
});

Deno.test("the guessed key's owner gets in once the wait is over, which clears the record", async () => {
  let ahead = 0; // the server's clock runs this far ahead (within SigV4's 15-minute skew)
  const f = await startStorage({ now: () => Date.now() + ahead });
  try {
    await s3.addUser(f.root, "owner", "owner-secret-1");
    await s3.setPolicy(f.root, ["readwrite"], "owner", false);
    for (let i = 0; i < 8; i++) await s3.listBuckets(f.as("owner", "wrong-secret-x")).catch(() => {});
    await assert.rejects(
      s3.listBuckets(f.as("owner", "owner-secret-1")),
      (e: { code: string }) => e.code === "SlowDown",
    );
    ahead += 31_000;
    assert.deepEqual(await s3.listBuckets(f.as("owner", "owner-secret-1")), []);
    // Cleared: one more wrong guess is checked (and fails) rather than refused.
    await assert.rejects(
      s3.listBuckets(f.as("owner", "wrong-again-x")),
      (e: { code: string }) => e.code === "SignatureDoesNotMatch",
    );
  } finally {
    await f.close();
  }
});
