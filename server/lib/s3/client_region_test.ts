import assert from "node:assert/strict";
import { S3Client } from "./client.ts";

const refusal = (message: string, headers: Record<string, string> = {}) =>
  new Response(
    `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AuthorizationHeaderMalformed</Code><Message>${message}</Message></Error>`,
    { status: 400, headers: { "content-type": "application/xml", ...headers } },
  );

/** A stub server configured for `region`: refuses other scopes the way MinIO does (its message names us-east-1). */
function minioLike(region: string, seen: string[]) {
  return (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const scope =
      /Credential=[^/]+\/\d+\/([^/]*)\//.exec(new Headers(init?.headers).get("authorization") ?? "")?.[1] ??
        "";
    seen.push(`${url.search || url.pathname}@${scope}`);
    if (url.searchParams.has("location")) {
      return Promise.resolve(
        new Response(
          `<LocationConstraint xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${region}</LocationConstraint>`,
        ),
      );
    }
    if (scope !== region) {
      return Promise.resolve(
        refusal("The authorization header is malformed; the region is wrong; expecting 'us-east-1'."),
      );
    }
    return Promise.resolve(new Response("<ListBucketResult></ListBucketResult>"));
  };
}

Deno.test("client: a server in another region is located with GetBucketLocation and the request signed again", async () => {
  const seen: string[] = [];
  const client = new S3Client({
    endpoint: "http://minio-like.test:9000",
    credentials: { accessKey: "AKIA0000", secretKey: "secret" },
    fetch: minioLike("ap-south-1", seen) as typeof fetch,
  });
  await client.text({ method: "GET", bucket: "b", query: { "list-type": 2 } });
  assert.deepEqual(seen, ["?list-type=2@us-east-1", "?location=@us-east-1", "?list-type=2@ap-south-1"]);
  seen.length = 0;
  await client.text({ method: "GET", bucket: "b", query: { "list-type": 2 } });
  assert.deepEqual(seen, ["?list-type=2@ap-south-1"], "the region is remembered for the endpoint");
});

Deno.test("client: a refusal that names the region is signed again for it; admin calls keep their empty region", async () => {
  const seen: string[] = [];
  const fetcher = (input: string | URL | Request, init?: RequestInit) => {
    const scope =
      /Credential=[^/]+\/\d+\/([^/]*)\//.exec(new Headers(init?.headers).get("authorization") ?? "")?.[1] ??
        "";
    seen.push(scope);
    if (new URL(String(input)).pathname.startsWith("/minio/admin/")) {
      return Promise.resolve(new Response("{}"));
    }
    return Promise.resolve(
      scope === "eu-west-1"
        ? new Response("ok")
        : refusal("the region 'x' is wrong; expecting 'eu-west-1'.", { "x-amz-bucket-region": "eu-west-1" }),
    );
  };
  const client = new S3Client({
    endpoint: "http://named.test:9000",
    credentials: { accessKey: "AKIA0000", secretKey: "secret" },
    fetch: fetcher as typeof fetch,
  });
  assert.equal(await client.text({ method: "GET", bucket: "b", key: "k" }), "ok");
  await client.text({ method: "GET", path: "/minio/admin/v3/info", region: "" });
  assert.deepEqual(seen, ["us-east-1", "eu-west-1", ""]);
});

Deno.test("client: requests refused together after a region change are each signed again for the new one", async () => {
  const seen: string[] = [];
  let region = "eu-central-1";
  let hold = false;
  // Both requests are answered only once both have arrived, as when a page loads its sections at once.
  const arrived: (() => void)[] = [];
  const fetcher = async (_input: string | URL | Request, init?: RequestInit) => {
    const scope =
      /Credential=[^/]+\/\d+\/([^/]*)\//.exec(new Headers(init?.headers).get("authorization") ?? "")?.[1] ??
        "";
    seen.push(scope);
    if (hold && seen.length <= 2) {
      await new Promise<void>((resolve) => {
        arrived.push(resolve);
        if (arrived.length === 2) arrived.forEach((go) => go());
      });
    }
    return scope === region ? new Response("ok") : refusal(
      `the region '${scope}' is wrong; expecting '${region}'.`,
      { "x-amz-bucket-region": region },
    );
  };
  const client = new S3Client({
    endpoint: "http://changed.test:9000",
    credentials: { accessKey: "AKIA0000", secretKey: "secret" },
    fetch: fetcher as typeof fetch,
  });
  assert.equal(await client.text({ method: "GET", bucket: "b", key: "first" }), "ok");
  seen.length = 0;
  region = "eu-west-1";
  hold = true;
  const answers = await Promise.all([
    client.text({ method: "GET", bucket: "b", key: "a" }),
    client.text({ method: "GET", bucket: "b", key: "b" }),
  ]);
  assert.deepEqual(answers, ["ok", "ok"]);
  assert.deepEqual(seen, ["eu-central-1", "eu-central-1", "eu-west-1", "eu-west-1"]);
});
