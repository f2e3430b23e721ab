import assert from "node:assert/strict";
import { decryptPayload, encryptPayload, PayloadCryptoError } from "./payload_crypto.ts";
import { sha256Hex, toHex } from "./sigv4.ts";

// Test vectors of minio-protocol §4.5.
const fromHex = (hex: string) => Uint8Array.fromHex(hex.replace(/\s+/g, ""));
const salt = Uint8Array.from({ length: 32 }, (_, i) => i);
const noncePrefix = Uint8Array.from({ length: 8 }, (_, i) => i);
const plaintext = new TextEncoder().encode(`{"secretKey":"newsecret123","status":"enabled"}`);
const vectors: [0 | 1 | 2, string][] = [
  [
    0,
    `000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f00000102030405060777
8fcffa34092bb5f2c35e9a10d3c9243b3d9c8966a735433a6c03e3a536388d1a37d9a891d8a6fdbdf947c6
68cfe436577d4675152addcca5f57049094dbc`,
  ],
  [
    1,
    `000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f010001020304050607d8
3f19809d086be2b30296cb1901a8be19b5a12bc14f630503c161bf4fdef896fa10586018dfb0fe6ff1b558
fa02a5b993d4a5f78958b18f03e53bebac12fb`,
  ],
  [
    2,
    `000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f0200010203040506070a
d84f46c5615ecd749ab391f94d2107de48dd261b243992297341d63b5507ac46893b0bff4cfac45cedcc26
45011ef6c68a04c6e056b23c0df3be4efcd4f6`,
  ],
];

for (const [algorithm, hex] of vectors) {
  Deno.test(`vector id 0x0${algorithm}: decrypts and re-encrypts byte for byte`, async () => {
    const expected = fromHex(hex);
    assert.deepEqual(await decryptPayload("minioadmin", expected), plaintext);
    const produced = await encryptPayload("minioadmin", plaintext, algorithm, { salt, noncePrefix });
    assert.equal(toHex(produced), toHex(expected));
  });
}

Deno.test("vector 4: empty plaintext", async () => {
  const expected =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f000001020304050607128c6e86e37e3edfbdead08e1fdf65bb";
  assert.equal(
    toHex(await encryptPayload("minioadmin", new Uint8Array(0), 0, { salt, noncePrefix })),
    expected,
  );
  assert.equal((await decryptPayload("minioadmin", fromHex(expected))).length, 0);
});

Deno.test("vector 5: 40000 bytes in three fragments", async () => {
  const data = new Uint8Array(40000).fill(0x61);
  const sealed = await encryptPayload("minioadmin", data, 0, { salt, noncePrefix });
  assert.equal(sealed.length, 40089);
  assert.equal(await sha256Hex(sealed), "19fa44a80405b81e2abff438f63056e0287de56a078b213606c557b3db2d18a8");
  assert.equal(
    toHex(sealed.subarray(41, 73)),
    "6dccddfe361a2fa0d8c746d94b90c6202d2f988b75a32013693e40aee6242d8d",
  );
  assert.deepEqual(await decryptPayload("minioadmin", sealed), data);
});

Deno.test("wrong password, tampering and truncation at a fragment boundary are refused", async () => {
  const data = new Uint8Array(40000).fill(7);
  const sealed = await encryptPayload("secret-one", data);
  await assert.rejects(() => decryptPayload("secret-two", sealed), PayloadCryptoError);
  const flipped = sealed.slice();
  flipped[100] ^= 1;
  await assert.rejects(() => decryptPayload("secret-one", flipped), PayloadCryptoError);
  await assert.rejects(
    () => decryptPayload("secret-one", sealed.subarray(0, 41 + 16400)),
    PayloadCryptoError,
  );
  await assert.rejects(() => decryptPayload("secret-one", sealed.subarray(0, 20)), PayloadCryptoError);
});

Deno.test("derived keys are reused safely: messages for one password share a salt but not a nonce, and others do not open them", async () => {
  const first = await encryptPayload("secret-one-12345", new TextEncoder().encode("first"));
  const second = await encryptPayload("secret-one-12345", new TextEncoder().encode("second"));
  assert.deepEqual(first.subarray(0, 32), second.subarray(0, 32), "the salt is reused for a while");
  assert.notDeepEqual(
    first.subarray(33, 41),
    second.subarray(33, 41),
    "each message has its own nonce prefix",
  );
  assert.equal(new TextDecoder().decode(await decryptPayload("secret-one-12345", second)), "second");
  await assert.rejects(decryptPayload("secret-two-12345", second));
  const other = await encryptPayload("secret-two-12345", new TextEncoder().encode("x"));
  assert.notDeepEqual(other.subarray(0, 32), first.subarray(0, 32), "another password gets its own salt");
});
