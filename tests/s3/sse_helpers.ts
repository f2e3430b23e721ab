/**
 * Shared by the encryption tests: the test key store, SSE-C headers, recognisable bytes, and a scan of the disk
 * for plaintext.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";

/** SSE-C request headers for a customer key of 32 bytes all set to `fill` (algorithm, key, key MD5). */
export function customerKeyHeaders(fill: number): Record<string, string> {
  const key = new Uint8Array(32).fill(fill);
  return {
    "x-amz-server-side-encryption-customer-algorithm": "AES256",
    "x-amz-server-side-encryption-customer-key": key.toBase64(),
    "x-amz-server-side-encryption-customer-key-md5": createHash("md5").update(key).digest("base64"),
  };
}

/** The key store of these tests (as tests/helpers.ts TEST_KMS_KEY). */
export const KMS_KEY = `deck-test-key:${new Uint8Array(32).fill(7).toBase64()}`;

/** Random bytes (no run of them appears anywhere by chance); `_seed` only names the call. */
export function pattern(size: number, _seed = 1): Uint8Array {
  const out = new Uint8Array(size);
  for (let at = 0; at < size; at += 65536) {
    crypto.getRandomValues(out.subarray(at, Math.min(size, at + 65536)));
  }
  return out;
}

/**
 * Whether a file under `dir` holds any of 256 32-byte runs of `plain` spread over it: every file offset's
 * first 4 bytes are looked up among the runs' (one pass per file), and candidates are compared in full.
 */
export async function diskHoldsPlaintext(dir: string, plain: Uint8Array): Promise<boolean> {
  const step = Math.max(32, Math.floor(plain.length / 256));
  const probes = new Map<number, Uint8Array[]>();
  for (let at = 0; at + 32 <= plain.length; at += step) {
    const probe = plain.subarray(at, at + 32);
    const head = new DataView(probe.buffer, probe.byteOffset).getUint32(0);
    probes.set(head, [...(probes.get(head) ?? []), probe]);
  }
  const holds = (bytes: Uint8Array) => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let i = 0; i + 32 <= bytes.length; i++) {
      const candidates = probes.get(view.getUint32(i));
      if (candidates?.some((p) => p.every((b, j) => bytes[i + j] === b))) return true;
    }
    return false;
  };
  const walk = async (path: string): Promise<boolean> => {
    for await (const entry of Deno.readDir(path)) {
      const full = `${path}/${entry.name}`;
      if (entry.isDirectory && (await walk(full))) return true;
      if (entry.isFile && holds(await Deno.readFile(full))) return true;
    }
    return false;
  };
  return await walk(dir);
}

/** Byte equality (node:assert's deepEqual walks large arrays slowly). */
export function sameBytes(actual: Uint8Array, expected: Uint8Array, message?: string): void {
  assert.equal(actual.length, expected.length, message ?? "the lengths differ");
  assert.ok(Buffer.from(actual).equals(Buffer.from(expected)), message ?? "the bytes differ");
}
