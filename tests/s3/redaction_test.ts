/**
 * What records of requests keep: an SSE-C upload, a copy between SSE-C keys, a download with the key, a
 * request with a session token and a presigned URL carrying one, all sent by the AWS SDK or as a browser
 * would. Neither an audit webhook, nor the log search's database on disk, nor the admin trace stream may hold
 * a customer key, a session token or a signature; each shows that the header was there, redacted.
 */
import assert from "node:assert/strict";
import {
  CopyObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client as SdkClient,
} from "@aws-sdk/client-s3";
import { createHash } from "node:crypto";
import { S3Client } from "../../server/lib/s3/client.ts";
import { makeBucket, serviceTrace, setConfigKV } from "../../server/lib/s3/mod.ts";
import { assumeRole } from "../../server/lib/s3/sts.ts";
import { eventually } from "../eventually.ts";
import { startStack } from "../helpers.ts";

const LAST_KEY = "last request 🎉 + % # ?.txt";

function customerKey(fill: number) {
  const key = new Uint8Array(32).fill(fill);
  return { key: key.toBase64(), md5: createHash("md5").update(key).digest("base64") };
}

/** Every file of the log search's database (SQLite and its write-ahead log) as text. */
async function databaseText(dir: string): Promise<string> {
  let text = "";
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) text += new TextDecoder().decode(await Deno.readFile(`${dir}/${entry.name}`));
  }
  return text;
}

Deno.test("no customer key, session token or signature reaches audit webhooks, the log search or the trace", async () => {
  const stack = await startStack({ logSearch: true });
  const hookBodies: string[] = [];
  const hook = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    hookBodies.push(await req.text());
    return new Response(null);
  });
  const traced: string[] = [];
  const stopTrace = new AbortController();
  const sdk = (credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string }) =>
    new SdkClient({ endpoint: stack.storage.url, region: "us-east-1", forcePathStyle: true, credentials });
  const root = sdk({
    accessKeyId: stack.storage.root.accessKey,
    secretAccessKey: stack.storage.root.secretKey,
  });
  let session: SdkClient | undefined;
  let tracing: Promise<void> = Promise.resolve();
  try {
    await setConfigKV(
      stack.admin,
      `audit_webhook:watcher endpoint=http://127.0.0.1:${(hook.addr as Deno.NetAddr).port}/audit`,
    );
    const query = { s3: true, internal: true, storage: false, os: false, errorsOnly: false, threshold: "0s" };
    tracing = (async () => {
      for await (const info of serviceTrace(stack.admin, query, stopTrace.signal)) {
        traced.push(JSON.stringify(info));
      }
    })().catch(() => {});
    await makeBucket(stack.admin, "sealed");
    // The trace is open once it shows a request made after it was asked for.
    await eventually("the trace stream", async () => {
      await stack.admin.empty({ method: "HEAD", bucket: "sealed" });
      return traced.length;
    }, { until: (n) => n > 0 });

    const first = customerKey(1), second = customerKey(2);
    await root.send(
      new PutObjectCommand({
        Bucket: "sealed",
        Key: "payroll 2024.csv",
        Body: "salaries",
        SSECustomerAlgorithm: "AES256",
        SSECustomerKey: first.key,
        SSECustomerKeyMD5: first.md5,
      }),
    );
    await root.send(
      new CopyObjectCommand({
        Bucket: "sealed",
        Key: "payroll copy.csv",
        CopySource: "sealed/payroll%202024.csv",
        CopySourceSSECustomerAlgorithm: "AES256",
        CopySourceSSECustomerKey: first.key,
        CopySourceSSECustomerKeyMD5: first.md5,
        SSECustomerAlgorithm: "AES256",
        SSECustomerKey: second.key,
        SSECustomerKeyMD5: second.md5,
      }),
    );
    const read = await root.send(
      new GetObjectCommand({
        Bucket: "sealed",
        Key: "payroll copy.csv",
        SSECustomerAlgorithm: "AES256",
        SSECustomerKey: second.key,
        SSECustomerKeyMD5: second.md5,
      }),
    );
    assert.equal(await read.Body!.transformToString(), "salaries");

    const temporary = await assumeRole(stack.admin);
    session = sdk({
      accessKeyId: temporary.accessKey,
      secretAccessKey: temporary.secretKey,
      sessionToken: temporary.sessionToken,
    });
    await session.send(new ListObjectsV2Command({ Bucket: "sealed" }));
    await stack.admin.empty({ method: "PUT", bucket: "sealed", key: LAST_KEY, body: "last" });
    const presigned = await new S3Client({ endpoint: stack.storage.url, credentials: temporary }).presign(
      "GET",
      "sealed",
      LAST_KEY,
      600,
    );
    const signature = presigned.searchParams.get("X-Amz-Signature")!;
    assert.equal(await (await fetch(presigned)).text(), "last");

    const secrets = {
      "first key": first.key,
      "second key": second.key,
      "session token": temporary.sessionToken,
      signature,
    };
    await eventually("the audit webhook's entry of the presigned download", () => hookBodies.join("\n"), {
      until: (text) => text.includes(`"name":"GetObject","bucket":"sealed","object":"${LAST_KEY}"`),
    });
    await eventually("the trace of the presigned download", () => traced.join("\n"), {
      until: (text) =>
        text.includes(`"funcname":"s3.GetObject"`) && text.includes(`"path":"/sealed/${LAST_KEY}"`),
    });
    const database = await eventually(
      "the log search's rows",
      () => databaseText(`${stack.dataDir}/logsearch`),
      { until: (text) => text.includes("last request") },
    );
    for (
      const [where, text] of Object.entries({
        "audit webhook": hookBodies.join("\n"),
        trace: traced.join("\n"),
        "log search database": database,
      })
    ) {
      for (const [what, secret] of Object.entries(secrets)) {
        assert.ok(!text.includes(secret), `the ${where} holds the ${what}`);
      }
      assert.doesNotMatch(text, /Signature=[0-9a-f]{64}/, `the ${where} holds a request signature`);
    }
    for (const text of [hookBodies.join("\n"), traced.join("\n")]) {
      assert.match(text, /X-Amz-Server-Side-Encryption-Customer-Key"\s*:\s*\[?"\*REDACTED\*"/);
      assert.match(text, /X-Amz-Copy-Source-Server-Side-Encryption-Customer-Key"\s*:\s*\[?"\*REDACTED\*"/);
      assert.match(text, /X-Amz-Security-Token"\s*:\s*\[?"\*REDACTED\*"/);
    }
  } finally {
    stopTrace.abort();
    await tracing;
    root.destroy();
    session?.destroy();
    await hook.shutdown();
    await stack.close();
  }
});
