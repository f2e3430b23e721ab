/**
 * Object bytes through the console, against the real embedded storage: the form upload, resumable multipart
 * uploads (resume from the parts the storage holds, abort leaves nothing), ranged downloads and safe
 * previews, zip archives, whole-bucket search streaming hits, and share links that are listed, work through
 * the console's own address and stop working the moment they are revoked.
 */
import assert from "node:assert/strict";
import type {
  ObjectList,
  SearchEvent,
  ShareLinkList,
  UploadedPart,
  UploadSession,
} from "../../server/lib/contract/objects.ts";
import { listMultipartUploads, makeBucket, putObject } from "../../server/lib/s3/mod.ts";
import { type ConsoleClient, runScenarios, signInAsRoot, startStack, type TestStack } from "../helpers.ts";

const MIB = 1024 * 1024;

/** Sends raw bytes as a PUT body (the part endpoint). */
async function putBytes(client: ConsoleClient, path: string, bytes: Uint8Array): Promise<Response> {
  return await fetch(client.baseUrl + path, {
    method: "PUT",
    body: bytes as Uint8Array<ArrayBuffer>,
    headers: { cookie: client.cookie, origin: client.baseUrl },
  });
}

async function download(
  client: ConsoleClient,
  path: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  return await fetch(client.baseUrl + path, { headers: { cookie: client.cookie, ...headers } });
}

async function withZipListing(bytes: Uint8Array, check: (names: string[]) => void): Promise<void> {
  const file = await Deno.makeTempFile({ suffix: ".zip" });
  try {
    await Deno.writeFile(file, bytes);
    const out = await new Deno.Command("unzip", { args: ["-Z1", file], stdout: "piped", stderr: "piped" })
      .output();
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    check(new TextDecoder().decode(out.stdout).trim().split("\n"));
  } finally {
    await Deno.remove(file);
  }
}

async function uploadFlows(t: Deno.TestContext, stack: TestStack, root: ConsoleClient) {
  await t.step(
    "the form upload stores each file under prefix + field name, large ones in parts",
    async () => {
      const big = new Uint8Array(9 * MIB).map((_, i) => i & 0xff);
      const form = new FormData();
      form.append("notes/ünï code.txt", new File(["hello form"], "ignored.txt", { type: "text/plain" }));
      form.append("big.bin", new File([big], "big.bin"));
      const res = await fetch(
        `${root.baseUrl}/api/v1/buckets/files/objects/upload?prefix=${encodeURIComponent("in/")}`,
        { method: "POST", body: form, headers: { cookie: root.cookie, origin: root.baseUrl } },
      );
      assert.equal(res.status, 200, await res.text());
      const text = await download(
        root,
        `/api/v1/buckets/files/objects/download?prefix=${encodeURIComponent("in/notes/ünï code.txt")}`,
      );
      assert.equal(await text.text(), "hello form");
      assert.equal(text.headers.get("content-type"), "text/plain");
      const back = new Uint8Array(
        await (await download(root, "/api/v1/buckets/files/objects/download?prefix=in%2Fbig.bin"))
          .arrayBuffer(),
      );
      assert.deepEqual(back, big);
      assert.deepEqual(await listMultipartUploads(stack.admin, "files"), [], "no parts left behind");
    },
  );

  await t.step("a multipart upload resumes from the parts the storage holds and completes", async () => {
    const data = new Uint8Array(5 * MIB + 1234).map((_, i) => (i * 7) & 0xff);
    const session = await root.json<UploadSession>("POST", "/api/v1/buckets/files/uploads", {
      key: "resumed.bin",
      size: data.length,
      content_type: "application/x-test",
    }, 201);
    assert.equal(session.direct, false);
    const base = `/api/v1/buckets/files/uploads/${session.upload_id}`;
    const first = data.subarray(0, 5 * MIB);
    const sent = await putBytes(root, `${base}/parts/1?key=resumed.bin`, first);
    assert.equal(sent.status, 200, await sent.text());
    // A reload later: the browser asks which parts exist and sends only the rest.
    const { parts } = await root.json<{ parts: UploadedPart[] }>(
      "GET",
      `${base}/parts?key=resumed.bin`,
      undefined,
      200,
    );
    assert.deepEqual(parts.map((p) => [p.part_number, p.size]), [[1, 5 * MIB]]);
    const pending = await root.json<{ uploads: { upload_id: string }[] }>(
      "GET",
      "/api/v1/buckets/files/uploads?prefix=resumed",
      undefined,
      200,
    );
    assert.deepEqual(pending.uploads.map((u) => u.upload_id), [session.upload_id]);
    const second = await (await putBytes(root, `${base}/parts/2?key=resumed.bin`, data.subarray(5 * MIB)))
      .json();
    const done = await root.json<{ etag: string }>("POST", `${base}/complete`, {
      key: "resumed.bin",
      parts: [...parts, second],
    }, 200);
    assert.match(done.etag, /-2$/);
    const back = await download(root, "/api/v1/buckets/files/objects/download?prefix=resumed.bin");
    assert.equal(back.headers.get("content-type"), "application/x-test");
    assert.deepEqual(new Uint8Array(await back.arrayBuffer()), data);
  });

  await t.step("a cancelled upload is aborted: no object, no stray parts", async () => {
    const session = await root.json<UploadSession>("POST", "/api/v1/buckets/files/uploads", {
      key: "cancelled.bin",
      size: 6 * MIB,
    }, 201);
    await putBytes(
      root,
      `/api/v1/buckets/files/uploads/${session.upload_id}/parts/1?key=cancelled.bin`,
      new Uint8Array(5 * MIB),
    );
    await root.json(
      "DELETE",
      `/api/v1/buckets/files/uploads/${session.upload_id}?key=cancelled.bin`,
      undefined,
      204,
    );
    assert.deepEqual(await listMultipartUploads(stack.admin, "files"), []);
    await root.json("GET", "/api/v1/buckets/files/objects/download?prefix=cancelled.bin", undefined, 404);
    await root.json(
      "GET",
      `/api/v1/buckets/files/uploads/${session.upload_id}/parts?key=cancelled.bin`,
      undefined,
      404,
    );
  });

  await t.step("bad part requests are refused", async () => {
    const session = await root.json<UploadSession>("POST", "/api/v1/buckets/files/uploads", {
      key: "bad.bin",
      size: 10,
    }, 201);
    assert.equal(
      (await putBytes(
        root,
        `/api/v1/buckets/files/uploads/${session.upload_id}/parts/0?key=bad.bin`,
        new Uint8Array(3),
      )).status,
      400,
    );
    assert.equal(
      (await putBytes(root, `/api/v1/buckets/files/uploads/${session.upload_id}/parts/1`, new Uint8Array(3)))
        .status,
      400,
      "the key is required",
    );
    await root.json("POST", `/api/v1/buckets/files/uploads/${session.upload_id}/complete`, {
      key: "bad.bin",
      parts: [{ part_number: 1, etag: "nope" }],
    }, 400);
    await root.json(
      "POST",
      `/api/v1/buckets/files/uploads/${session.upload_id}/parts/1/presign?key=bad.bin`,
      undefined,
      409,
    );
    await root.json(
      "DELETE",
      `/api/v1/buckets/files/uploads/${session.upload_id}?key=bad.bin`,
      undefined,
      204,
    );
  });
}

async function downloadFlows(t: Deno.TestContext, stack: TestStack, root: ConsoleClient) {
  await t.step("downloads stream with ranges; previews are inline and cannot run script", async () => {
    await putObject(stack.admin, "files", "docs/readme.txt", "0123456789", { contentType: "text/html" });
    const ranged = await download(root, "/api/v1/buckets/files/objects/download?prefix=docs%2Freadme.txt", {
      range: "bytes=2-5",
    });
    assert.equal(ranged.status, 206);
    assert.equal(ranged.headers.get("content-range"), "bytes 2-5/10");
    assert.equal(await ranged.text(), "2345");
    const whole = await download(
      root,
      "/api/v1/buckets/files/objects/download?prefix=docs%2Freadme.txt&download_id=abc123",
    );
    assert.equal(whole.headers.get("accept-ranges"), "bytes");
    assert.match(whole.headers.get("content-disposition")!, /^attachment; filename="readme.txt"/);
    assert.match(
      whole.headers.get("set-cookie") ?? "",
      /deck-download=abc123/,
      "tells the page the download started",
    );
    assert.match(whole.headers.get("content-security-policy")!, /sandbox/);
    await whole.body?.cancel();
    const preview = await download(
      root,
      "/api/v1/buckets/files/objects/download?prefix=docs%2Freadme.txt&preview=true",
    );
    assert.equal(
      preview.headers.get("content-type"),
      "text/plain; charset=utf-8",
      "stored as text/html, shown as text",
    );
    assert.match(preview.headers.get("content-disposition")!, /^inline/);
    assert.equal(preview.headers.get("x-frame-options"), "SAMEORIGIN");
    await preview.body?.cancel();
    const unsatisfiable = await download(
      root,
      "/api/v1/buckets/files/objects/download?prefix=docs%2Freadme.txt",
      { range: "bytes=50-" },
    );
    assert.equal(unsatisfiable.status, 416);
    await unsatisfiable.body?.cancel();
  });

  await t.step("a folder or a selection downloads as one zip", async () => {
    for (const key of ["album/2024/a.jpg", "album/2024/b.jpg", "album/2024/deep/c.jpg", "album/other.txt"]) {
      await putObject(stack.admin, "files", key, key);
    }
    const folder = await download(root, "/api/v1/buckets/files/objects/zip?prefix=album%2F2024%2F");
    assert.equal(folder.headers.get("content-type"), "application/zip");
    assert.match(folder.headers.get("content-disposition")!, /filename="2024.zip"/);
    await withZipListing(
      new Uint8Array(await folder.arrayBuffer()),
      (names) => assert.deepEqual(names.sort(), ["2024/a.jpg", "2024/b.jpg", "2024/deep/c.jpg"]),
    );
    const form = new FormData();
    form.append("base", "album/");
    form.append("path", "album/other.txt");
    form.append("path", "album/2024/deep/");
    const selection = await fetch(`${root.baseUrl}/api/v1/buckets/files/objects/zip`, {
      method: "POST",
      body: form,
      headers: { cookie: root.cookie, origin: root.baseUrl },
    });
    assert.equal(selection.status, 200);
    assert.match(selection.headers.get("content-disposition")!, /filename="album.zip"/);
    await withZipListing(
      new Uint8Array(await selection.arrayBuffer()),
      (names) => assert.deepEqual(names.sort(), ["2024/deep/c.jpg", "other.txt"]),
    );
    await root.json("GET", "/api/v1/buckets/files/objects/zip?prefix=nothing.txt", undefined, 404);
  });

  await t.step("whole-bucket search streams hits and counts what it scanned", async () => {
    const res = await download(root, "/api/v1/buckets/files/objects/search?prefix=album%2F&q=JPG");
    assert.equal(res.headers.get("content-type"), "application/x-ndjson");
    const events = (await res.text()).trim().split("\n").map((l) => JSON.parse(l) as SearchEvent);
    const hits = events.filter((e) => e.type === "hit").map((e) =>
      (e as { object: { name: string } }).object.name
    );
    assert.deepEqual(hits, ["album/2024/a.jpg", "album/2024/b.jpg", "album/2024/deep/c.jpg"]);
    assert.deepEqual(events.at(-1), { type: "done", scanned: 4, hits: 3 });
    const glob = await (await download(
      root,
      "/api/v1/buckets/files/objects/search?prefix=album%2F&q=*%2Fb.jpg&mode=glob",
    )).text();
    assert.deepEqual(
      glob.trim().split("\n").map((l) => JSON.parse(l)).filter((e) => e.type === "hit").map((e) =>
        e.object.name
      ),
      ["album/2024/b.jpg"],
    );
    await root.json("GET", "/api/v1/buckets/files/objects/search?prefix=&q=", undefined, 400);
    const long = await root.json<{ message: string }>(
      "GET",
      `/api/v1/buckets/files/objects/search?mode=glob&q=${"a*".repeat(129)}`,
      undefined,
      400,
    );
    assert.equal(long.message, "A glob pattern must be at most 256 characters");
  });
}

async function shareFlows(t: Deno.TestContext, stack: TestStack, root: ConsoleClient) {
  await t.step("share: the spec's expiry rules", async () => {
    await putObject(stack.admin, "files", "share/report.txt", "shared bytes");
    const past = await root.json<{ message: string }>(
      "GET",
      "/api/v1/buckets/files/objects/share?prefix=share%2Freport.txt&version_id=null&expires=0ms",
      undefined,
      400,
    );
    assert.equal(past.message, "Selected date must be greater than current time.");
    const far = await root.json<{ message: string }>(
      "GET",
      "/api/v1/buckets/files/objects/share?prefix=share%2Freport.txt&version_id=null&expires=604800001ms",
      undefined,
      400,
    );
    assert.equal(far.message, "You can share a file only for less than 7 days.");
  });

  await t.step(
    "share links work through the console and the storage, are listed, and stop at revocation",
    async () => {
      const viaConsole = await root.json<string>(
        "GET",
        "/api/v1/buckets/files/objects/share?prefix=share%2Freport.txt&version_id=null&expires=3600000ms",
        undefined,
        200,
      );
      assert.ok(viaConsole.startsWith(`${root.baseUrl}/shared/files/share/report.txt?`), viaConsole);
      const viaStorage = await root.json<string>(
        "GET",
        "/api/v1/buckets/files/objects/share?prefix=share%2Freport.txt&version_id=null&via=storage",
        undefined,
        200,
      );
      assert.ok(viaStorage.startsWith(`${stack.storage.url}/files/share/report.txt?`));
      for (const url of [viaConsole, viaStorage]) {
        const res = await fetch(url);
        assert.equal(res.status, 200);
        assert.equal(await res.text(), "shared bytes");
      }
      const fromConsole = await fetch(viaConsole, { headers: { range: "bytes=0-5" } });
      assert.equal(fromConsole.status, 206);
      assert.equal(await fromConsole.text(), "shared");
      const { links } = await root.json<ShareLinkList>("GET", "/api/v1/share-links", undefined, 200);
      assert.equal(links.length, 2);
      const consoleLink = links.find((l) => l.via_console)!;
      assert.equal(consoleLink.object, "share/report.txt");
      assert.ok(
        Math.abs(Date.parse(consoleLink.expires) - (Date.now() + 3600_000)) < 60_000,
        "its exact expiry",
      );
      await root.json("DELETE", `/api/v1/share-links/${encodeURIComponent(consoleLink.id)}`, undefined, 204);
      const revoked = await fetch(viaConsole);
      assert.equal(revoked.status, 403);
      assert.match(await revoked.text(), /expired or was revoked/);
      assert.equal((await fetch(viaStorage)).status, 200, "the other link still works");
      const storageLink = links.find((l) => !l.via_console)!;
      await root.json("DELETE", `/api/v1/share-links/${encodeURIComponent(storageLink.id)}`, undefined, 204);
      const dead = await fetch(viaStorage);
      await dead.body?.cancel();
      assert.equal(dead.status, 403);
      assert.deepEqual(
        (await root.json<ShareLinkList>("GET", "/api/v1/share-links", undefined, 200)).links,
        [],
      );
      await root.json("DELETE", "/api/v1/share-links/not-a-link", undefined, 404);
    },
  );

  await t.step("a link for another object's key cannot be made from a link", async () => {
    const url = new URL(
      await root.json<string>(
        "GET",
        "/api/v1/buckets/files/objects/share?prefix=share%2Freport.txt&version_id=null&expires=60000ms",
        undefined,
        200,
      ),
    );
    url.pathname = url.pathname.replace("report.txt", "other.txt");
    const res = await fetch(url);
    await res.body?.cancel();
    assert.equal(res.status, 403);
    const plain = await fetch(`${root.baseUrl}/shared/files/share/report.txt`);
    assert.equal(plain.status, 404, "no signature, nothing forwarded");
    await plain.body?.cancel();
  });
}

Deno.test("object transfers: uploads, downloads, zips, search and share links", async (t) => {
  const stack = await startStack();
  try {
    await makeBucket(stack.admin, "files");
    await runScenarios(t, stack, [
      {
        name: "no session",
        as: "none",
        method: "GET",
        path: "/api/v1/buckets/files/objects/search?prefix=&q=a",
        status: 401,
      },
      {
        name: "no session",
        as: "none",
        method: "GET",
        path: "/api/v1/buckets/files/objects/share?prefix=a&version_id=null",
        status: 401,
      },
      {
        name: "no session",
        as: "none",
        method: "PUT",
        path: "/api/v1/buckets/files/uploads/x/parts/1?key=a",
        body: "x",
        status: 401,
      },
      {
        name: "user without the permission",
        as: "narrow",
        method: "GET",
        path: "/api/v1/buckets/files/objects/search?prefix=&q=a",
        status: 403,
      },
      {
        name: "user without the permission",
        as: "narrow",
        method: "POST",
        path: "/api/v1/buckets/files/uploads",
        body: { key: "a", size: 1 },
        status: 403,
      },
    ]);
    const root = await signInAsRoot(stack);
    await uploadFlows(t, stack, root);
    await downloadFlows(t, stack, root);
    await shareFlows(t, stack, root);
    const listed = await root.json<ObjectList>(
      "GET",
      "/api/v1/buckets/files/objects?prefix=&limit=100",
      undefined,
      200,
    );
    assert.ok(listed.objects.some((o) => o.name === "resumed.bin"));
  } finally {
    await stack.close();
  }
});

Deno.test("object transfers: with a public storage address, parts go straight to storage on presigned URLs", async () => {
  const stack = await startStack({ publicStorage: true });
  try {
    await makeBucket(stack.admin, "direct");
    const root = await signInAsRoot(stack);
    const data = new Uint8Array(5 * MIB + 10).fill(3);
    const session = await root.json<UploadSession>("POST", "/api/v1/buckets/direct/uploads", {
      key: "d.bin",
      size: data.length,
    }, 201);
    assert.equal(session.direct, true);
    const parts = [];
    for (const [n, bytes] of [[1, data.subarray(0, 5 * MIB)], [2, data.subarray(5 * MIB)]] as const) {
      const { url } = await root.json<{ url: string }>(
        "POST",
        `/api/v1/buckets/direct/uploads/${session.upload_id}/parts/${n}/presign?key=d.bin`,
        undefined,
        200,
      );
      assert.ok(url.startsWith(stack.storage.url), url);
      assert.ok(
        !url.includes(stack.storage.root.secretKey) &&
          !decodeURIComponent(url).includes(stack.storage.root.secretKey),
        "no secret in the URL",
      );
      const put = await fetch(url, { method: "PUT", body: bytes, headers: { origin: root.baseUrl } });
      assert.equal(put.status, 200);
      assert.equal(
        put.headers.get("access-control-allow-origin"),
        root.baseUrl,
        "the storage answers CORS for the console's origin",
      );
      parts.push({ part_number: n, etag: put.headers.get("etag")!.replaceAll('"', "") });
    }
    await root.json("POST", `/api/v1/buckets/direct/uploads/${session.upload_id}/complete`, {
      key: "d.bin",
      parts,
    }, 200);
    assert.deepEqual(
      new Uint8Array(
        await (await download(root, "/api/v1/buckets/direct/objects/download?prefix=d.bin")).arrayBuffer(),
      ),
      data,
    );
  } finally {
    await stack.close();
  }
});
