/**
 * POST /api/v1/list-external-buckets connects to what the user typed: it takes only a host and port, and a
 * failure is reported in the console's words, never with the target's answer.
 */
import assert from "node:assert/strict";
import { signInAsRoot, startStack } from "../helpers.ts";

const MARKER = "TARGET-SAYS-SOMETHING-PRIVATE";

Deno.test("list-external-buckets: host and port only; failures without the target's body", async () => {
  const stack = await startStack();
  // A target that answers anything but S3: HTML with private content, an S3-looking error, and a huge body.
  const hostile = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (request.headers.get("x-amz-date") && path === "/") {
      const mode = request.headers.get("authorization")?.includes("Credential=huge/")
        ? "huge"
        : request.headers.get("authorization")?.includes("Credential=xml/")
        ? "xml"
        : "html";
      if (mode === "huge") {
        return new Response(
          new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(1024 * 1024).fill(60)) }),
          { status: 200 },
        );
      }
      if (mode === "xml") {
        return new Response(`<Error><Code>AccessDenied</Code><Message>${MARKER}</Message></Error>`, {
          status: 403,
        });
      }
    }
    return new Response(`<html>${MARKER}</html>`, { status: 500, headers: { "content-type": "text/html" } });
  });
  const target = `127.0.0.1:${(hostile.addr as Deno.NetAddr).port}`;
  try {
    const root = await signInAsRoot(stack);
    const list = (targetURL: string, accessKey = "someone") =>
      root.request("POST", "/api/v1/list-external-buckets", {
        accessKey,
        secretKey: "some-secret",
        targetURL,
        useTLS: false,
      });
    for (
      const bad of [
        `${target}/minio/admin/v3/info`,
        `http://${target}/x?y=1`,
        `user@${target}`,
        "127.0.0.1:99999",
        `${target}#frag`,
        "a b:9000",
      ]
    ) {
      const res = await list(bad);
      const body = await res.json();
      assert.equal(res.status, 400, bad);
      assert.ok(body.fields?.targetURL, `${bad}: the field is named`);
    }
    for (const accessKey of ["html-key", "xml", "huge"]) {
      const res = await list(target, accessKey);
      const text = await res.text();
      assert.equal(res.status, 400, `${accessKey}: ${text.slice(0, 200)}`);
      assert.ok(
        !text.includes(MARKER) && !text.includes("<<<<"),
        `${accessKey}: the target's body is not relayed: ${text.slice(0, 300)}`,
      );
      assert.match(JSON.parse(text).detailedMessage, new RegExp(target.replace(/\./g, "\\.")));
    }
    // A real S3 server in host:port form and with a scheme both list.
    for (const targetURL of [stack.storage.url.replace("http://", ""), stack.storage.url]) {
      const ok = await root.json<{ total: number }>("POST", "/api/v1/list-external-buckets", {
        accessKey: stack.storage.root.accessKey,
        secretKey: stack.storage.root.secretKey,
        targetURL,
        useTLS: false,
      }, 200);
      assert.equal(ok.total, 0);
    }
  } finally {
    await hostile.shutdown();
    await stack.close();
  }
});
