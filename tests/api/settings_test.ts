/**
 * The Settings API and the settings taking effect in the embedded storage (issue 14): auth matrix, the
 * spec's validations on the server (a half-valid form refused whole), masked secrets, region (signatures and
 * GetBucketLocation), compression, LDAP stored only (OpenID web identity: tests/api/oidc_sts_test.ts),
 * tiers with MinIO's shapes, and a restart that drops no request in flight.
 */
import assert from "node:assert/strict";
import { freePort } from "../storage_process.ts";
import { addTier, removeTier } from "../../server/lib/s3/admin/buckets.ts";
import { getConfigKV } from "../../server/lib/s3/admin/config_kv.ts";
import { S3Client } from "../../server/lib/s3/client.ts";
import { getBucketLocation, makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { getObject, listObjectsV2, putObject } from "../../server/lib/s3/ops/objects.ts";
import { signHeaders } from "../../server/lib/s3/sigv4.ts";
import { type ConsoleClient, runScenarios, signInAsRoot, startStack, type TestStack } from "../helpers.ts";

const kv = (values: Record<string, string>) => ({
  key_values: Object.entries(values).map(([key, value]) => ({ key, value })),
});

async function put(client: ConsoleClient, name: string, values: Record<string, string>, status = 200) {
  return await client.json<{ restart?: boolean; fields?: Record<string, string>; detailedMessage?: string }>(
    "PUT",
    `/api/v1/configs/${name}`,
    kv(values),
    status,
  );
}

async function restart(client: ConsoleClient) {
  const res = await client.request("POST", "/api/v1/service/restart", {});
  assert.equal(res.status, 204);
  assert.match(
    res.headers.get("set-cookie") ?? "",
    /deck_restart=;/,
    "a successful restart clears the restart flag",
  );
}

/** Bytes the bucket's object data occupies on disk (large objects live in data files). */
async function storedBytes(stack: TestStack, bucket: string): Promise<number> {
  let total = 0;
  const walk = async (dir: string) => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory) await walk(`${dir}/${entry.name}`);
      else if (entry.name.endsWith(".data")) total += (await Deno.stat(`${dir}/${entry.name}`)).size;
    }
  };
  await walk(`${await Deno.realPath(stack.dataDir)}/buckets/${bucket}`);
  return total;
}

Deno.test("settings API: auth, validation, secrets, and every setting taking effect", async (t) => {
  const stack = await startStack();
  try {
    await runScenarios(t, stack, [
      { name: "no session", as: "none", method: "GET", path: "/api/v1/configs/region", status: 401 },
      {
        name: "a user without admin rights",
        as: "narrow",
        method: "PUT",
        path: "/api/v1/configs/region",
        body: kv({ name: "x-1" }),
        status: 403,
      },
      {
        name: "a user without admin rights",
        as: "narrow",
        method: "GET",
        path: "/api/v1/admin/notification_endpoints",
        status: 403,
      },
      {
        name: "root, nothing configured",
        as: "root",
        method: "GET",
        path: "/api/v1/admin/notification_endpoints",
        status: 200,
        check: (b) => assert.deepEqual(b, { notification_endpoints: [] }),
      },
      {
        name: "root",
        as: "root",
        method: "GET",
        path: "/api/v1/configs",
        status: 200,
        check: (b) =>
          assert.ok(
            (b as { configurations: { key: string }[] }).configurations.some((c) =>
              c.key === "identity_openid"
            ),
          ),
      },
    ]);
    const root = await signInAsRoot(stack);

    await t.step(
      "the spec's rules are checked on the server; a half-valid form is refused whole",
      async () => {
        assert.deepEqual((await put(root, "region", { name: "" }, 400)).fields, {
          name: "Field cannot be empty",
        });
        assert.match((await put(root, "region", { name: "1 bad" }, 400)).fields!.name, /start with a letter/);
        const half = await put(root, "identity_ldap", {
          server_addr: "ldap.example.com:636",
          username_search_filter: "(uid=%s)",
          group_search_filter: "(member=%d)",
          sts_expiry: "forever",
        }, 400);
        assert.deepEqual(Object.keys(half.fields!).sort(), ["sts_expiry", "username_format"]);
        assert.deepEqual(await getConfigKV(stack.admin, "identity_ldap"), [{
          subSystem: "identity_ldap",
          target: undefined,
          kv: [],
        }], "nothing of a refused form is stored");
        assert.match(
          (await put(root, "notify_webhook", { endpoint: "ftp://x", queue_dir: "relative/dir" }, 400))
            .detailedMessage!,
          /endpoint: .*queue_dir: Please enter an absolute path/,
        );
        assert.match(
          (await put(root, "region", { name: "eu-west-1", colour: "red" }, 400)).fields!.colour,
          /not a setting of region/,
        );
        // Comma-separated lists drop empty entries.
        await put(root, "compression", { extensions: " .txt, ,.log ,", mime_types: "text/*" });
        assert.deepEqual((await getConfigKV(stack.admin, "compression"))[0].kv, [{
          key: "extensions",
          value: ".txt,.log",
        }, { key: "mime_types", value: "text/*" }]);
      },
    );

    await t.step("cache and etcd are refused: the embedded storage cannot act on them", async () => {
      const res = await root.json<{ message: string; detailedMessage: string }>(
        "PUT",
        "/api/v1/configs/cache",
        kv({ drives: "/mnt/a,/mnt/b" }),
        501,
      );
      assert.match(res.detailedMessage, /cache/);
      await root.json("PUT", "/api/v1/configs/etcd", kv({ endpoints: "http://127.0.0.1:2379" }), 501);
    });

    await t.step("secrets are masked in a GET and kept when the mask is sent back", async () => {
      assert.equal(
        (await put(root, "logger_webhook", {
          endpoint: "http://127.0.0.1:9/logs",
          auth_token: "Bearer very-secret",
        })).restart,
        false,
        "the logger webhook applies at once",
      );
      const shown = await root.json<{ key_values: { key: string; value: string }[] }>(
        "GET",
        "/api/v1/configs/logger_webhook",
        undefined,
        200,
      );
      assert.deepEqual(shown.key_values, [{ key: "endpoint", value: "http://127.0.0.1:9/logs" }, {
        key: "auth_token",
        value: "********",
      }]);
      await put(root, "logger_webhook", { endpoint: "http://127.0.0.1:10/logs", auth_token: "********" });
      const stored = (await getConfigKV(stack.admin, "logger_webhook"))[0].kv;
      assert.deepEqual(
        stored.find((k) => k.key === "auth_token")?.value,
        "Bearer very-secret",
        "the masked token kept the stored one",
      );
      assert.deepEqual(stored.find((k) => k.key === "endpoint")?.value, "http://127.0.0.1:10/logs");
      await put(root, "notify_postgres", {
        connection_string: "host=127.0.0.1 port=1 user=u password=pg-secret dbname=d sslmode=disable",
        table: "events",
        format: "access",
      });
      const pg = await root.json<{ key_values: { key: string; value: string }[] }>(
        "GET",
        "/api/v1/configs/notify_postgres",
        undefined,
        200,
      );
      assert.equal(
        pg.key_values.find((k) => k.key === "connection_string")?.value,
        "host=127.0.0.1 port=1 user=u password=******** dbname=d sslmode=disable",
      );
      assert.ok(!JSON.stringify(pg).includes("pg-secret"));
    });

    await t.step(
      "POST notification_endpoints adds a named target; it is listed Offline while unreachable",
      async () => {
        const res = await root.json<{ restart: boolean }>("POST", "/api/v1/admin/notification_endpoints", {
          service: "webhook",
          account_id: "side",
          properties: { endpoint: "http://127.0.0.1:9/x", queue_dir: `${stack.dataDir}/q` },
        }, 201);
        assert.equal(res.restart, true);
        await restart(root);
        const { notification_endpoints } = await root.json<
          { notification_endpoints: { service: string; account_id: string; status: string }[] }
        >("GET", "/api/v1/admin/notification_endpoints", undefined, 200);
        assert.deepEqual(notification_endpoints.find((e) => e.account_id === "side"), {
          service: "webhook",
          account_id: "side",
          status: "offline",
        });
      },
    );

    await t.step("region: signatures are checked against it and GetBucketLocation returns it", async () => {
      await makeBucket(stack.admin, "regional");
      await put(root, "region", { name: "eu-west-1" });
      await restart(root);
      assert.equal(await getBucketLocation(stack.admin, "regional"), "eu-west-1");
      const url = new URL(`${stack.storage.url}/regional?list-type=2`);
      const signed = await signHeaders({
        method: "GET",
        url,
        headers: {},
        payloadHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        credentials: stack.storage.root,
        region: "us-east-1",
        service: "s3",
        sendContentSha: true,
      });
      const wrong = await fetch(url, { headers: signed.headers });
      assert.equal(wrong.status, 400);
      assert.match(
        await wrong.text(),
        /<Code>AuthorizationHeaderMalformed<\/Code>.*expecting &apos;eu-west-1&apos;/s,
      );
      assert.equal(wrong.headers.get("x-amz-bucket-region"), "eu-west-1");
      // A client that does not know the region learns it from that answer and signs again.
      const fresh = new S3Client({
        endpoint: stack.storage.url.replace("127.0.0.1", "localhost"),
        credentials: stack.storage.root,
      });
      assert.deepEqual((await listObjectsV2(fresh, "regional")).objects, []);
      // The console keeps working: sign-in (STS), lists and admin calls.
      const again = await signInAsRoot(stack);
      await again.json("GET", "/api/v1/buckets", undefined, 200);
      const arns = await again.json<{ arns: string[] }>("GET", "/api/v1/admin/arns", undefined, 200);
      assert.ok(
        arns.arns.every((arn) => arn.startsWith("arn:minio:sqs:eu-west-1:")),
        "ARNs carry the region",
      );
    });

    await t.step("compression: matching objects are stored compressed and read back unchanged", async () => {
      await put(root, "compression", { extensions: ".txt", mime_types: "application/json" });
      await restart(root);
      await makeBucket(stack.admin, "squeeze");
      const text = "all work and no play makes jack a dull boy\n".repeat(40_000);
      await putObject(stack.admin, "squeeze", "big.txt", text);
      const onDisk = await storedBytes(stack, "squeeze");
      assert.ok(onDisk > 0 && onDisk < text.length / 20, `stored ${onDisk} bytes for ${text.length}`);
      const back = await getObject(stack.admin, "squeeze", "big.txt");
      assert.equal(back.headers.get("content-length"), String(text.length));
      assert.equal(await back.text(), text);
      const ranged = await stack.admin.send({
        method: "GET",
        bucket: "squeeze",
        key: "big.txt",
        headers: { range: "bytes=1000005-1000024" },
      });
      assert.equal(await ranged.text(), text.slice(1000005, 1000025));
      const random = new Uint8Array(300_000);
      for (let i = 0; i < random.length; i += 65_536) crypto.getRandomValues(random.subarray(i, i + 65_536));
      await putObject(stack.admin, "squeeze", "noise.bin", random);
      assert.ok(
        await storedBytes(stack, "squeeze") - onDisk >= random.length,
        "a .bin object is stored as it came",
      );
    });

    await t.step("identity_ldap is validated, stored and used: LDAP sign-in asks the directory", async () => {
      const closed = await freePort();
      await put(root, "identity_ldap", {
        server_addr: `127.0.0.1:${closed}`,
        username_format: "uid=%s,dc=example,dc=com",
        username_search_filter: "(uid=%s)",
        group_search_filter: "(&(objectclass=groupOfNames)(member=%d))",
        sts_expiry: "1h",
      });
      await restart(root);
      const res = await fetch(`${stack.storage.url}/`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "Action=AssumeRoleWithLDAPIdentity&Version=2011-06-15&LDAPUsername=a&LDAPPassword=b",
      });
      assert.equal(res.status, 400);
      assert.match(
        await res.text(),
        /LDAP server error: the directory at 127\.0\.0\.1:\d+ \(LDAPS\) cannot be reached/,
      );
    });

    await t.step(
      "tiers: MinIO shapes, the tier name rule, credential update, in-use check on remove",
      async () => {
        await makeBucket(stack.admin, "cold");
        const tier = (over: Record<string, string> = {}) => ({
          type: "s3",
          s3: {
            name: "WARM",
            endpoint: stack.storage.url,
            bucket: "cold",
            prefix: "tier/",
            region: "eu-west-1",
            accesskey: stack.storage.root.accessKey,
            secretkey: stack.storage.root.secretKey,
            storageclass: "",
            ...over,
          },
        });
        const lower = await root.json<{ fields: Record<string, string> }>(
          "POST",
          "/api/v1/admin/tiers",
          tier({ name: "warm" }),
          400,
        );
        assert.equal(
          lower.fields.name,
          "Please verify that string is uppercase only and contains valid characters (numbers, dashes & underscores).",
        );
        assert.deepEqual(
          Object.keys(
            (await root.json<{ fields: Record<string, string> }>(
              "POST",
              "/api/v1/admin/tiers",
              tier({ region: "", secretkey: "" }),
              400,
            )).fields,
          ).sort(),
          ["region", "secretkey"],
        );
        await root.json("POST", "/api/v1/admin/tiers", tier(), 201);
        await root.json("POST", "/api/v1/admin/tiers", tier(), 409);
        const { items } = await root.json<{ items: { type: string; s3: Record<string, string> }[] }>(
          "GET",
          "/api/v1/admin/tiers",
          undefined,
          200,
        );
        assert.deepEqual(items, [{
          type: "s3",
          s3: {
            name: "WARM",
            endpoint: stack.storage.url,
            bucket: "cold",
            prefix: "tier/",
            region: "eu-west-1",
            storageclass: "",
          },
        }]);
        assert.ok(!JSON.stringify(items).includes(stack.storage.root.secretKey));
        await root.json("GET", "/api/v1/admin/tiers/s3/WARM", undefined, 200);
        await root.json(
          "PUT",
          "/api/v1/admin/tiers/s3/WARM/credentials",
          { access_key: "", secret_key: "x" },
          400,
        );
        await root.json("PUT", "/api/v1/admin/tiers/s3/WARM/credentials", {
          access_key: "nobody",
          secret_key: "wrong-secret",
        }, 403);
        await root.json("PUT", "/api/v1/admin/tiers/s3/WARM/credentials", {
          access_key: stack.storage.root.accessKey,
          secret_key: stack.storage.root.secretKey,
        }, 200);
        await root.json("POST", "/api/v1/admin/tiers", {
          type: "gcs",
          gcs: {
            name: "COLDER",
            endpoint: "https://storage.googleapis.com/",
            bucket: "b",
            prefix: "p",
            region: "r",
            creds: btoa("{}"),
          },
        }, 201);
        // The backend now holds data: the tier cannot be removed without force.
        await putObject(stack.admin, "cold", "tier/obj", "x");
        await assert.rejects(removeTier(stack.admin, "WARM"), /XMinioAdminTierBackendNotEmpty|not empty/);
        await assert.rejects(
          addTier(stack.admin, {
            Version: "v1",
            Type: "minio",
            Name: "OTHER",
            MinIO: {
              Endpoint: stack.storage.url,
              AccessKey: stack.storage.root.accessKey,
              SecretKey: stack.storage.root.secretKey,
              Bucket: "cold",
              Prefix: "",
              Region: "",
            },
          }),
          /already in use/,
        );
      },
    );

    await t.step(
      "restart reloads in-process: requests in flight finish, acknowledged writes stay",
      async () => {
        await makeBucket(stack.admin, "busy");
        const writes = Array.from({ length: 40 }, (_, i) => putObject(stack.admin, "busy", `k${i}`, `v${i}`));
        const restarts = [restart(root), restart(root)];
        await Promise.all([...writes, ...restarts]);
        const listed = await listObjectsV2(stack.admin, "busy", { maxKeys: 1000 });
        assert.equal(listed.objects.length, 40);
      },
    );
  } finally {
    await stack.close();
  }
});
