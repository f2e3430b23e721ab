/**
 * What Deck finds out about the storage server it is pointed at (server/console/session/capabilities.ts), over
 * the wire: the embedded MinIO-compatible server speaks the admin API, STS and metrics and every bucket
 * feature; s3rver speaks plain S3 only, so sign-in uses the typed keys, admin pages and calls are refused with
 * a reason, and the bucket features it lacks read "no".
 */
import assert from "node:assert/strict";
import type { ServerCapabilities } from "../../server/lib/contract/capabilities.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { ConsoleClient, signIn, signInAsRoot, startStack } from "../helpers.ts";
import { S3RVER_KEYS, startS3rver } from "../s3rver_process.ts";

const ADMIN_PAGES = /^\/(dashboard|users|groups|policies|settings|trace|logs|watch|heal|health-info|account)/;

Deno.test("capabilities of the embedded server: admin API, STS, metrics, every bucket feature", async (t) => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, "features");
    const client = await signInAsRoot(stack);

    await t.step("no session → 401", async () => {
      const res = await new ConsoleClient(stack.consoleUrl).request("GET", "/api/v1/capabilities");
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });

    await t.step("the answer names what the server speaks", async () => {
      const caps = await client.json<ServerCapabilities>("GET", "/api/v1/capabilities", undefined, 200);
      assert.equal(caps.endpoint, stack.storage.url);
      assert.equal(caps.adminApi, "yes");
      assert.equal(caps.sts, "yes");
      assert.equal(caps.metrics, "v2");
      assert.deepEqual(caps.identityModes, ["sts"]);
      assert.equal(typeof caps.minioVersion, "string");
      assert.deepEqual(caps.s3, {
        versioning: "yes",
        objectLock: "yes",
        tagging: "yes",
        lifecycle: "yes",
        probedBucket: "features",
      });
    });

    await t.step("refresh asks again; it changes state so it needs the console's Origin", async () => {
      const foreign = await client.request("POST", "/api/v1/capabilities/refresh", undefined, {
        origin: "https://elsewhere.example",
      });
      assert.equal(foreign.status, 403);
      await foreign.body?.cancel();
      const fresh = await client.json<ServerCapabilities>(
        "POST",
        "/api/v1/capabilities/refresh",
        undefined,
        200,
      );
      assert.equal(fresh.adminApi, "yes");
    });

    await t.step("nothing is hidden: the session's pages keep every admin area", async () => {
      const session = await client.json<{ pages: string[] }>("GET", "/api/v1/session", undefined, 200);
      assert.ok(session.pages.includes("/users"));
      assert.ok(session.pages.includes("/settings"));
    });
  } finally {
    await stack.close();
  }
});

Deno.test("capabilities of s3rver: plain S3, keys sign-in, admin calls refused with the reason", async (t) => {
  const s3rver = await startS3rver();
  const stack = await startStack({ storageUrl: s3rver.url });
  try {
    await makeBucket(new S3Client({ endpoint: s3rver.url, credentials: S3RVER_KEYS }), "plain");

    // s3rver checks the access key but not SigV4 signatures, so only an unknown key can be refused.
    await t.step("an unknown access key is refused: 401 invalid Login", async () => {
      const res = await new ConsoleClient(stack.consoleUrl).request("POST", "/api/v1/login", {
        accessKey: "NOT-S3RVER",
        secretKey: S3RVER_KEYS.secretKey,
      });
      assert.equal(res.status, 401);
      assert.equal((await res.json()).message, "invalid Login");
    });

    const client = await signIn(stack, S3RVER_KEYS.accessKey, S3RVER_KEYS.secretKey);

    await t.step(
      "the answer: no admin API, no STS, no metrics, and the bucket features s3rver lacks",
      async () => {
        const caps = await client.json<ServerCapabilities>("GET", "/api/v1/capabilities", undefined, 200);
        assert.equal(caps.adminApi, "no");
        assert.equal(caps.sts, "no");
        assert.equal(caps.metrics, "none");
        assert.deepEqual(caps.identityModes, ["access-keys"]);
        assert.equal(caps.minioVersion, null);
        assert.deepEqual(caps.s3, {
          versioning: "no",
          objectLock: "no",
          tagging: "no",
          lifecycle: "no",
          probedBucket: "plain",
        });
      },
    );

    await t.step("the session offers the S3 pages only", async () => {
      const session = await client.json<{ pages: string[] }>("GET", "/api/v1/session", undefined, 200);
      assert.ok(session.pages.includes("/buckets"));
      assert.ok(session.pages.includes("/object-browser"));
      assert.deepEqual(session.pages.filter((page) => ADMIN_PAGES.test(page)), []);
    });

    await t.step("an admin API call says the server lacks MinIO's admin API (501)", async () => {
      const body = await client.json<{ code: number; message: string }>(
        "GET",
        "/api/v1/users",
        undefined,
        501,
      );
      assert.equal(body.message, "this server does not speak MinIO's admin API");
    });

    await t.step("buckets list, and a feature s3rver lacks answers 501 naming it", async () => {
      const list = await client.json<{ buckets: { name: string }[] }>(
        "GET",
        "/api/v1/buckets",
        undefined,
        200,
      );
      assert.deepEqual(list.buckets.map((b) => b.name), ["plain"]);
      const lifecycle = await client.json<{ message: string }>(
        "GET",
        "/api/v1/buckets/plain/lifecycle",
        undefined,
        501,
      );
      assert.equal(lifecycle.message, "Lifecycle rules: not supported by this storage server");
    });

    await t.step("sign-out clears the session without revoking anything", async () => {
      await client.json("POST", "/api/v1/logout", undefined, 200);
      const res = await client.request("GET", "/api/v1/session");
      assert.equal(res.status, 401);
      await res.body?.cancel();
    });
  } finally {
    await stack.close();
    await s3rver.close();
  }
});
