/**
 * Names in every script through the console's object transfers, against the real embedded storage: the
 * form upload (and refused form names), downloads that give the browser the real file name, zips whose
 * entries carry UTF-8 names and never climb out of the folder they are extracted into, share links fetched
 * by an anonymous client, and user metadata that is not ASCII as an AWS SDK sees it on the wire.
 */
import assert from "node:assert/strict";
import { HeadObjectCommand, S3Client as SdkClient } from "@aws-sdk/client-s3";
import type { ObjectDetail, ObjectList } from "../../server/lib/contract/objects.ts";
import { headObject, listMultipartUploads, makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { type ConsoleClient, signInAsRoot, startStack, type TestStack } from "../helpers.ts";
import { contentOf, dispositionNames, WORLD_FOLDER, WORLD_NAMES, zipEntries } from "../names.ts";

const BUCKET = "names";
const q = encodeURIComponent;

async function get(client: ConsoleClient, path: string): Promise<Response> {
  return await fetch(client.baseUrl + path, { headers: { cookie: client.cookie } });
}

/** A form upload of `files` (field name → text) under `prefix`, as a browser's FormData sends it. */
async function formUpload(client: ConsoleClient, prefix: string, files: [string, string][]) {
  const form = new FormData();
  for (const [field, text] of files) form.append(field, new File([text], "ignored.bin"));
  return await fetch(`${client.baseUrl}/api/v1/buckets/${BUCKET}/objects/upload?prefix=${q(prefix)}`, {
    method: "POST",
    body: form,
    headers: { cookie: client.cookie, origin: client.baseUrl },
  });
}

/** A hand-written multipart body, for the bytes no FormData encoder would send. */
async function rawFormUpload(client: ConsoleClient, disposition: Uint8Array): Promise<Response> {
  const enc = new TextEncoder();
  const body = new Uint8Array([
    ...enc.encode('--XyZ\r\nContent-Disposition: form-data; name="'),
    ...disposition,
    ...enc.encode('"; filename="f.bin"\r\n\r\nbytes\r\n--XyZ--\r\n'),
  ]);
  return await fetch(`${client.baseUrl}/api/v1/buckets/${BUCKET}/objects/upload`, {
    method: "POST",
    body,
    headers: {
      cookie: client.cookie,
      origin: client.baseUrl,
      "content-type": "multipart/form-data; boundary=XyZ",
    },
  });
}

async function formAndDownload(t: Deno.TestContext, root: ConsoleClient) {
  await t.step("the form upload stores every name, at the top and in a folder", async () => {
    const files = WORLD_NAMES.flatMap((
      name,
    ) => [[name, contentOf(name)], [WORLD_FOLDER + name, contentOf(name)]]);
    const res = await formUpload(root, "", files as [string, string][]);
    assert.equal(res.status, 200, await res.text());
    const listing = await root.json<ObjectList>(
      "GET",
      `/api/v1/buckets/${BUCKET}/objects?prefix=${q(WORLD_FOLDER)}`,
      undefined,
      200,
    );
    assert.deepEqual(
      listing.objects.map((o) => o.name).sort(),
      WORLD_NAMES.map((n) => WORLD_FOLDER + n).sort(),
    );
  });

  await t.step("a download gives the browser the real file name and the exact bytes", async () => {
    for (const name of WORLD_NAMES) {
      const res = await get(
        root,
        `/api/v1/buckets/${BUCKET}/objects/download?prefix=${q(WORLD_FOLDER + name)}`,
      );
      assert.equal(res.status, 200, name);
      const disposition = res.headers.get("content-disposition");
      assert.match(
        disposition!,
        /^attachment; filename="[\x20-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9%._~!$&+^`|-]+$/,
      );
      const { utf8, ascii } = dispositionNames(disposition);
      assert.equal(utf8, name, "filename* carries the exact name");
      assert.doesNotMatch(ascii!, /["\\%]/, "the fallback holds nothing a browser could misread");
      assert.equal(await res.text(), contentOf(name));
      const preview = await get(
        root,
        `/api/v1/buckets/${BUCKET}/objects/download?prefix=${q(WORLD_FOLDER + name)}&preview=true`,
      );
      await preview.body?.cancel();
      if (preview.status === 200) {
        assert.equal(dispositionNames(preview.headers.get("content-disposition")).utf8, name);
      }
    }
  });

  await t.step(
    "a form name no browser would send is refused with a clear error, nothing stored",
    async () => {
      const notUtf8 = await rawFormUpload(root, new Uint8Array([0x62, 0x61, 0x64, 0xff, 0xfe, 0x2e, 0x74]));
      assert.equal(notUtf8.status, 400);
      const body = await notUtf8.json();
      assert.equal(typeof body.detailedMessage, "string");
      assert.match(body.detailedMessage, /UTF-8/);
      const emoji = await rawFormUpload(root, new TextEncoder().encode("raw ✓ 🎉.txt"));
      assert.equal(emoji.status, 200, "raw UTF-8, as browsers send it");
      const stored = await get(
        root,
        `/api/v1/buckets/${BUCKET}/objects/download?prefix=${q("raw ✓ 🎉.txt")}`,
      );
      assert.equal(await stored.text(), "bytes");
    },
  );
}

async function zipsAndLinks(t: Deno.TestContext, stack: TestStack, root: ConsoleClient) {
  await t.step("a folder's zip carries UTF-8 names with the language encoding flag", async () => {
    const res = await get(root, `/api/v1/buckets/${BUCKET}/objects/zip?prefix=${q(WORLD_FOLDER)}`);
    assert.equal(res.status, 200);
    assert.equal(dispositionNames(res.headers.get("content-disposition")).utf8, "Документы.zip");
    const entries = zipEntries(new Uint8Array(await res.arrayBuffer()));
    assert.deepEqual(entries.map((e) => e.name).sort(), WORLD_NAMES.map((n) => WORLD_FOLDER + n).sort());
    for (const entry of entries) assert.equal(entry.flags & 0x0800, 0x0800, `${entry.name}: bit 11 is set`);
  });

  await t.step("zip entries never keep drive letters, backslashes or climbs out of the folder", async () => {
    // Keys a Windows tool wrote (the storage itself refuses ".." segments, so a zip never meets them).
    const keys = [
      "C:/Windows/win.ini",
      "D:\\Users\\Ünï\\notes.txt",
      "\\\\server\\share\\x.txt",
      "E:relative ✓.txt",
    ];
    for (const key of keys) await putObject(stack.admin, BUCKET, key, key);
    const form = new FormData();
    form.append("base", "");
    for (const key of keys) form.append("path", key);
    const res = await fetch(`${root.baseUrl}/api/v1/buckets/${BUCKET}/objects/zip`, {
      method: "POST",
      body: form,
      headers: { cookie: root.cookie, origin: root.baseUrl },
    });
    assert.equal(res.status, 200);
    assert.deepEqual(zipEntries(new Uint8Array(await res.arrayBuffer())).map((e) => e.name), [
      "Windows/win.ini",
      "Users/Ünï/notes.txt",
      "server/share/x.txt",
      "relative ✓.txt",
    ]);
  });

  await t.step("share links to such names work for an anonymous client, through both addresses", async () => {
    for (const name of WORLD_NAMES) {
      for (const via of ["console", "storage"]) {
        const url = await root.json<string>(
          "GET",
          `/api/v1/buckets/${BUCKET}/objects/share?prefix=${
            q(WORLD_FOLDER + name)
          }&version_id=null&expires=600000ms&via=${via}`,
          undefined,
          200,
        );
        const res = await fetch(url);
        assert.equal(res.status, 200, `${name} via ${via}: ${url}`);
        assert.equal(await res.text(), contentOf(name));
        if (via === "console") {
          assert.equal(dispositionNames(res.headers.get("content-disposition")).utf8, name);
        }
      }
    }
  });
}

async function metadata(t: Deno.TestContext, stack: TestStack, root: ConsoleClient) {
  const value = "Zoë ✓ 报告 🎉";
  await t.step(
    "user metadata that is not ASCII goes on the wire RFC 2047 encoded and reads back",
    async () => {
      await putObject(stack.admin, BUCKET, "meta.txt", "m", {
        userMetadata: { note: value, plain: "ascii" },
      });
      const sdk = new SdkClient({
        endpoint: stack.storage.url,
        region: "us-east-1",
        forcePathStyle: true,
        credentials: {
          accessKeyId: stack.storage.root.accessKey,
          secretAccessKey: stack.storage.root.secretKey,
        },
      });
      try {
        const head = await sdk.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "meta.txt" }));
        assert.match(head.Metadata!.note, /^(=\?UTF-8\?[QB]\?[\x21-\x7e]+\?=\s*)+$/i, "an encoded word");
        assert.equal(head.Metadata!.plain, "ascii", "ASCII values go as they are");
      } finally {
        sdk.destroy();
      }
      assert.equal((await headObject(stack.admin, BUCKET, "meta.txt")).userMetadata.note, value);
      const detail = await root.json<ObjectDetail>(
        "GET",
        `/api/v1/buckets/${BUCKET}/objects/detail?prefix=meta.txt`,
        undefined,
        200,
      );
      assert.equal(detail.user_metadata?.note, value, "the object page shows the text");
      const listed = await root.json<ObjectList>(
        "GET",
        `/api/v1/buckets/${BUCKET}/objects?prefix=meta.txt&with_metadata=true`,
        undefined,
        200,
      );
      const listedMeta = Object.entries(listed.objects[0].user_metadata ?? {});
      assert.equal(listedMeta.find(([k]) => k.toLowerCase() === "note")?.[1], value, "the listing too");
    },
  );
}

Deno.test("names in every script: form upload, downloads, zips, share links and metadata", async (t) => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, BUCKET);
    const root = await signInAsRoot(stack);
    await formAndDownload(t, root);
    await zipsAndLinks(t, stack, root);
    await metadata(t, stack, root);
    assert.deepEqual(await listMultipartUploads(stack.admin, BUCKET), [], "nothing half-written");
  } finally {
    await stack.close();
  }
});
