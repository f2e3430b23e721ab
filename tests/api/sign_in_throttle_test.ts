/**
 * Failed sign-ins slow the guesser, not the account's owner. The console signs in through the storage over
 * loopback; it vouches for each attempt's client address (server/lib/s3/forwarded_client.ts), so the storage's
 * own guess throttle counts strangers' wrong passwords against them and not against every console sign-in
 * of the account. Guessers use real, distinct loopback source addresses.
 */
import assert from "node:assert/strict";
import { FORWARDED_FOR_HEADER, FORWARDED_PROOF_HEADER } from "../../server/lib/s3/forwarded_client.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { assumeRole } from "../../server/lib/s3/sts.ts";
import { startStack, type TestStack } from "../helpers.ts";

/** One sign-in attempt from a given loopback source address (optionally naming another in X-Forwarded-For). */
async function signInFrom(
  stack: TestStack,
  source: string,
  secretKey: string,
  forwardedFor?: string,
): Promise<Response> {
  const client = Deno.createHttpClient({ localAddress: source } as Deno.CreateHttpClientOptions);
  try {
    // Deno's fetch takes `client` (its HttpClient) beside the standard options.
    const res = await fetch(`${stack.consoleUrl}/api/v1/login`, {
      method: "POST",
      client,
      headers: {
        "content-type": "application/json",
        origin: stack.consoleUrl,
        ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
      },
      body: JSON.stringify({ accessKey: stack.storage.root.accessKey, secretKey }),
    } as RequestInit);
    await res.body?.cancel();
    return res;
  } finally {
    client.close();
  }
}

Deno.test("strangers guessing root's password from two addresses do not lock root out", async () => {
  const stack = await startStack();
  try {
    for (const guesser of ["127.0.0.2", "127.0.0.3"]) {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await signInFrom(stack, guesser, `wrong-${i}`)).status);
      assert.deepEqual(statuses, [401, 401, 401, 429], `${guesser} is slowed after three wrong passwords`);
      const slowed = await signInFrom(stack, guesser, stack.storage.root.secretKey);
      assert.equal(slowed.status, 429, "even the right password waits at the guesser's address");
      assert.ok(Number(slowed.headers.get("retry-after")) >= 1);
    }
    // Six wrong passwords reached the storage, three from each guesser: none counts against the owner.
    for (let i = 0; i < 5; i++) {
      const owner = await signInFrom(stack, "127.0.0.4", stack.storage.root.secretKey);
      assert.equal(owner.status, 201, `the owner's sign-in ${i + 1} from another address`);
    }
  } finally {
    await stack.close();
  }
});

Deno.test("X-Forwarded-For names the client only with CONSOLE_TRUST_FORWARDED=on", async () => {
  const direct = await startStack();
  try {
    for (let i = 0; i < 3; i++) {
      assert.equal((await signInFrom(direct, "127.0.0.5", "wrong", `203.0.113.${i + 1}`)).status, 401);
    }
    assert.equal(
      (await signInFrom(direct, "127.0.0.5", direct.storage.root.secretKey, "198.51.100.9")).status,
      429,
      "a client naming other addresses is still counted under its own",
    );
  } finally {
    await direct.close();
  }
  const proxied = await startStack({ env: { CONSOLE_TRUST_FORWARDED: "on" } });
  try {
    // Behind a proxy every request comes from the proxy; the client is the entry the proxy added (the last).
    for (let i = 0; i < 3; i++) {
      assert.equal((await signInFrom(proxied, "127.0.0.6", "wrong", "10.9.9.9, 203.0.113.7")).status, 401);
    }
    assert.equal((await signInFrom(proxied, "127.0.0.6", "wrong", "203.0.113.7")).status, 429);
    for (let i = 0; i < 3; i++) {
      assert.equal((await signInFrom(proxied, "127.0.0.6", "wrong", `203.0.113.${20 + i}`)).status, 401);
    }
    assert.equal(
      (await signInFrom(proxied, "127.0.0.6", proxied.storage.root.secretKey, "198.51.100.9")).status,
      201,
      "the owner behind the same proxy signs in",
    );
  } finally {
    await proxied.close();
  }
});

Deno.test("the storage believes a forwarded address only with the console's proof", async () => {
  const stack = await startStack();
  try {
    const guesser = new S3Client({
      endpoint: stack.storage.url,
      credentials: { accessKey: stack.storage.root.accessKey, secretKey: "wrong-secret" },
    });
    const codes: string[] = [];
    for (let i = 0; i < 7; i++) {
      const forged = {
        [FORWARDED_FOR_HEADER]: `198.51.100.${i + 1}`,
        [FORWARDED_PROOF_HEADER]: `${Math.floor(Date.now() / 1000)}.${"0".repeat(64)}`,
      };
      codes.push(await assumeRole(guesser, { headers: forged }).then(() => "ok", (e) => e.code));
    }
    // STS answers a wrong signature with AccessDenied (as MinIO does); the sixth guess is not even checked.
    assert.deepEqual(codes.slice(0, 5), Array(5).fill("AccessDenied"));
    assert.equal(codes.at(-1), "SlowDown", "a made-up proof does not spread guesses over addresses");
  } finally {
    await stack.close();
  }
});
