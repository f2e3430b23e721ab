import assert from "node:assert/strict";
import { checksumOf, compositeChecksum, createChecksum, isChecksumValue } from "./checksums.ts";

const hex = (b64: string) => Uint8Array.fromBase64(b64).toHex();

Deno.test("checksums: the standard check values over '123456789'", () => {
  assert.equal(hex(checksumOf("CRC32", "123456789")), "cbf43926");
  assert.equal(hex(checksumOf("CRC32C", "123456789")), "e3069283");
  assert.equal(hex(checksumOf("CRC64NVME", "123456789")), "ae8b14860a799888");
  assert.equal(hex(checksumOf("SHA1", "abc")), "a9993e364706816aba3e25717850c26c9cd0d89d");
  assert.equal(checksumOf("CRC32", "hello"), "NhCmhg==", "what the AWS SDK sent for 'hello'");
});

Deno.test("checksums: feeding in pieces gives the value of the whole, across the 8-byte fast path", () => {
  const data = new Uint8Array(1000).map((_, i) => (i * 31) & 0xff);
  for (const algorithm of ["CRC32", "CRC32C", "CRC64NVME", "SHA256"] as const) {
    const whole = checksumOf(algorithm, data);
    const pieces = createChecksum(algorithm);
    for (const cut of [[0, 3], [3, 17], [17, 500], [500, 1000]]) pieces.update(data.subarray(cut[0], cut[1]));
    assert.equal(pieces.digest().toBase64(), whole, algorithm);
  }
});

Deno.test("checksums: values must be base64 of the algorithm's length; composites end in -N", () => {
  assert.equal(isChecksumValue("CRC32", "NhCmhg=="), true);
  assert.equal(isChecksumValue("CRC32", "NhCmhgAA"), false);
  assert.equal(isChecksumValue("SHA256", "not base64!"), false);
  const parts = [checksumOf("CRC32", "a"), checksumOf("CRC32", "b")];
  assert.match(compositeChecksum("CRC32", parts), /^[A-Za-z0-9+/]{6}==-2$/);
});
