/**
 * The console's archive upload (PUT /api/v1/buckets/{b}/objects/archive?prefix=, issue 28) against the real
 * embedded storage: the tar is unpacked under the folder; refusals come back as the contract's JSON error
 * (a user who may not write, a broken archive, a prefix MinIO's header cannot carry, no session).
 */
import assert from "node:assert/strict";
import { listAllObjects, makeBucket } from "../../server/lib/s3/mod.ts";
import { tarBlob } from "../../islands/lib/tar_writer.ts";
import { type ConsoleClient, createUser, signIn, signInAsRoot, startStack } from "../helpers.ts";

const tar = (files: Record<string, string>) =>
  tarBlob(Object.entries(files).map(([name, text]) => ({ name, file: new Blob([text]) })));

async function sendArchive(client: ConsoleClient, bucket: string, prefix: string, body: Blob) {
  const res = await fetch(
    `${client.baseUrl}/api/v1/buckets/${encodeURIComponent(bucket)}/objects/archive?prefix=${
      encodeURIComponent(prefix)
    }`,
    { method: "PUT", body, headers: { cookie: client.cookie, origin: client.baseUrl } },
  );
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

Deno.test("console: an archive upload is unpacked into the folder, refusals are the contract's errors", async () => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, "drop");
    const root = await signInAsRoot(stack);
    const files = { "un +%#?.txt": "1", "δύο/二 😀.txt": "2" };
    assert.equal((await sendArchive(root, "drop", "in box/", tar(files))).status, 200);
    const keys = (await listAllObjects(stack.admin, "drop")).objects.map((o) => o.key).sort();
    assert.deepEqual(keys, ["in box/un +%#?.txt", "in box/δύο/二 😀.txt"]);

    const broken = new Uint8Array(await tar({ "a.txt": "a".repeat(2000) }).arrayBuffer()).subarray(0, 1000);
    const refused = await sendArchive(root, "drop", "broken/", new Blob([broken]));
    assert.equal(refused.status, 400);
    assert.deepEqual(Object.keys(refused.body).sort(), ["code", "detailedMessage", "message"]);
    assert.match(refused.body.detailedMessage + refused.body.message, /tar file error/);

    const unicode = await sendArchive(root, "drop", "été/", tar(files));
    assert.equal(unicode.status, 400, "a folder path no header can carry goes in the entry names instead");

    await createUser(stack, "looker", "looker-secret-1", [{ name: "readonly" }]);
    const looker = await signIn(stack, "looker", "looker-secret-1");
    const denied = await sendArchive(looker, "drop", "in box/", tar({ "x.txt": "x" }));
    assert.equal(denied.status, 403);
    assert.ok(denied.body.code && denied.body.message, JSON.stringify(denied.body));
    assert.equal((await listAllObjects(stack.admin, "drop", { prefix: "in box/x" })).objects.length, 0);

    const anonymous = await fetch(`${stack.consoleUrl}/api/v1/buckets/drop/objects/archive?prefix=`, {
      method: "PUT",
      body: tar({ "y.txt": "y" }),
      headers: { origin: stack.consoleUrl },
    });
    await anonymous.body?.cancel();
    assert.equal(anonymous.status, 401);
  } finally {
    await stack.close();
  }
});
