import assert from "node:assert/strict";
import { boundaryOf, FormError, formParts } from "./multipart_form.ts";

/** A body delivered in pieces of `size` bytes, so delimiters straddle reads. */
function inPieces(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function encode(form: FormData): Promise<{ body: Uint8Array; type: string }> {
  const res = new Response(form);
  return { body: new Uint8Array(await res.arrayBuffer()), type: res.headers.get("content-type")! };
}

Deno.test("multipart form: fields and files come back exactly, whatever the read sizes", async () => {
  const file = new Uint8Array(100_000).map((_, i) => (i * 13) & 0xff);
  // Bytes that look like a boundary start inside the file must pass through.
  file.set(new TextEncoder().encode("\r\n--not-the-boundary\r\n"), 1000);
  const form = new FormData();
  form.append("key", "dir/ünïcode key %+#?.txt");
  form.append("empty", "");
  form.append("file", new File([file], 'a "quoted" name.bin', { type: "application/x-test" }));
  const { body, type } = await encode(form);
  for (const size of [1, 7, 4096, 1 << 20]) {
    const seen: Record<string, string | Uint8Array> = {};
    for await (const part of formParts(inPieces(body, size), boundaryOf(type)!)) {
      if (part.filename === undefined) seen[part.name] = await part.text(1024);
      else {
        assert.equal(part.filename, 'a "quoted" name.bin');
        assert.equal(part.contentType, "application/x-test");
        const chunks: Uint8Array[] = [];
        for await (const piece of part.data()) chunks.push(piece.slice());
        seen[part.name] = new Uint8Array(await new Blob(chunks as Uint8Array<ArrayBuffer>[]).arrayBuffer());
      }
    }
    assert.equal(seen.key, "dir/ünïcode key %+#?.txt", `read size ${size}`);
    assert.equal(seen.empty, "");
    assert.deepEqual(seen.file, file);
  }
});

Deno.test("multipart form: skipped parts, limits and malformed bodies", async () => {
  const form = new FormData();
  form.append("a", "x".repeat(100));
  form.append("b", "second");
  const { body, type } = await encode(form);
  const names: string[] = [];
  for await (const part of formParts(inPieces(body, 33), boundaryOf(type)!)) names.push(part.name);
  assert.deepEqual(names, ["a", "b"], "unread parts are skipped");
  await assert.rejects(async () => {
    for await (const part of formParts(inPieces(body, 33), boundaryOf(type)!)) await part.text(10);
  }, FormError);
  const cut = body.subarray(0, body.length - 20);
  await assert.rejects(async () => {
    for await (const part of formParts(inPieces(cut, 50), boundaryOf(type)!)) await part.text(1000);
  }, FormError);
  assert.equal(boundaryOf("application/json"), null);
  assert.equal(boundaryOf('multipart/form-data; boundary="abc def"'), "abc def");
});

Deno.test("multipart form: names in any script come back whole; headers that are not UTF-8 are refused", async () => {
  const form = new FormData();
  const names = ["报告 2026.pdf", "Ελληνικά.md", "ｶﾀｶﾅ.txt", "🎉 ✓.txt"];
  for (const name of names) form.append(`docs/${name}`, new File([name], name));
  const { body, type } = await encode(form);
  const seen: string[] = [];
  for await (const part of formParts(inPieces(body, 5), boundaryOf(type)!)) {
    assert.equal(part.filename, part.name.slice(5));
    assert.equal(await part.text(100), part.filename);
    seen.push(part.name);
  }
  assert.deepEqual(seen, names.map((n) => `docs/${n}`));
  const latin1 = new Uint8Array([
    ...new TextEncoder().encode('--b\r\nContent-Disposition: form-data; name="caf'),
    0xe9,
    ...new TextEncoder().encode('"\r\n\r\nx\r\n--b--\r\n'),
  ]);
  await assert.rejects(async () => {
    for await (const _ of formParts(inPieces(latin1, 8), "b"));
  }, FormError);
});
