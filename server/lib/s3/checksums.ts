/**
 * S3's flexible checksums (minio-protocol-2 §8): CRC32, CRC32C, CRC64NVME, SHA1 and SHA256 over a body,
 * as the base64 of the big-endian raw value. Shared by the embedded server (verifying and storing what
 * SDKs send) and by tests. CRC32 uses zlib's native code; CRC32C and CRC64NVME are table-driven here
 * (slicing by 8 for CRC32C, which SDKs may pick for large uploads).
 */
import { createHash } from "node:crypto";
import { crc32 as zlibCrc32 } from "node:zlib";

export const CHECKSUM_ALGORITHMS = ["CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256"] as const;
export type ChecksumAlgorithm = typeof CHECKSUM_ALGORITHMS[number];

/** Raw digest length per algorithm: a header value must decode to exactly this many bytes. */
export const CHECKSUM_BYTES: Record<ChecksumAlgorithm, number> = {
  CRC32: 4,
  CRC32C: 4,
  CRC64NVME: 8,
  SHA1: 20,
  SHA256: 32,
};

/** `x-amz-checksum-crc32` and friends. */
export const checksumHeader = (algorithm: ChecksumAlgorithm) => `x-amz-checksum-${algorithm.toLowerCase()}`;

/** The XML element naming a part's or object's checksum: ChecksumCRC32, ChecksumSHA256, ... */
export const checksumElement = (algorithm: ChecksumAlgorithm) => `Checksum${algorithm}`;

/** Parses an algorithm name case-insensitively; null when unknown. */
export function checksumAlgorithmOf(text: string): ChecksumAlgorithm | null {
  const upper = text.trim().toUpperCase();
  return (CHECKSUM_ALGORITHMS as readonly string[]).includes(upper) ? upper as ChecksumAlgorithm : null;
}

/** Whether `value` is the base64 of a digest of the algorithm's length (S3 refuses anything else). */
export function isChecksumValue(algorithm: ChecksumAlgorithm, value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  try {
    return Uint8Array.fromBase64(value).length === CHECKSUM_BYTES[algorithm];
  } catch {
    return false;
  }
}

export interface Checksum {
  update(bytes: Uint8Array): void;
  /** The raw big-endian digest. */
  digest(): Uint8Array;
}

function crc32Hasher(): Checksum {
  let crc = 0;
  return {
    update: (bytes) => void (crc = zlibCrc32(bytes, crc)),
    digest: () => uint32Bytes(crc),
  };
}

function uint32Bytes(value: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value >>> 0);
  return out;
}

/** Slicing-by-8 tables for the reflected CRC-32C (Castagnoli) polynomial 0x82F63B78. */
const CRC32C_TABLES = (() => {
  const tables = Array.from({ length: 8 }, () => new Uint32Array(256));
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    tables[0][n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    for (let t = 1; t < 8; t++) tables[t][n] = (tables[t - 1][n] >>> 8) ^ tables[0][tables[t - 1][n] & 0xff];
  }
  return tables;
})();

function crc32cUpdate(crc: number, bytes: Uint8Array): number {
  const [t0, t1, t2, t3, t4, t5, t6, t7] = CRC32C_TABLES;
  let c = ~crc >>> 0;
  let i = 0;
  const end8 = bytes.length - 8;
  for (; i <= end8; i += 8) {
    const lo = (c ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24))) >>> 0;
    c = t7[lo & 0xff] ^ t6[(lo >>> 8) & 0xff] ^ t5[(lo >>> 16) & 0xff] ^ t4[lo >>> 24] ^
      t3[bytes[i + 4]] ^ t2[bytes[i + 5]] ^ t1[bytes[i + 6]] ^ t0[bytes[i + 7]];
  }
  for (; i < bytes.length; i++) c = t0[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

function crc32cHasher(): Checksum {
  let crc = 0;
  return {
    update: (bytes) => void (crc = crc32cUpdate(crc, bytes)),
    digest: () => uint32Bytes(crc),
  };
}

/**
 * CRC-64/NVME (reflected polynomial 0x9A6C9329AC4BC9B5, init and xorout all ones) in two 32-bit halves,
 * since BigInt arithmetic per byte would be far slower.
 */
const CRC64_TABLES = (() => {
  const lo = new Uint32Array(256), hi = new Uint32Array(256);
  const polyLo = 0xac4bc9b5, polyHi = 0x9a6c9329;
  for (let n = 0; n < 256; n++) {
    let l = n, h = 0;
    for (let k = 0; k < 8; k++) {
      const carry = l & 1;
      l = ((l >>> 1) | ((h & 1) << 31)) >>> 0;
      h = h >>> 1;
      if (carry) {
        l = (l ^ polyLo) >>> 0;
        h = (h ^ polyHi) >>> 0;
      }
    }
    lo[n] = l;
    hi[n] = h;
  }
  return { lo, hi };
})();

function crc64nvmeHasher(): Checksum {
  let lo = 0xffffffff, hi = 0xffffffff;
  const { lo: tLo, hi: tHi } = CRC64_TABLES;
  return {
    update(bytes) {
      for (let i = 0; i < bytes.length; i++) {
        const index = (lo ^ bytes[i]) & 0xff;
        lo = (((lo >>> 8) | (hi << 24)) ^ tLo[index]) >>> 0;
        hi = ((hi >>> 8) ^ tHi[index]) >>> 0;
      }
    },
    digest() {
      const out = new Uint8Array(8);
      const view = new DataView(out.buffer);
      view.setUint32(0, ~hi >>> 0);
      view.setUint32(4, ~lo >>> 0);
      return out;
    },
  };
}

function hashHasher(name: "sha1" | "sha256"): Checksum {
  const hash = createHash(name);
  return { update: (bytes) => void hash.update(bytes), digest: () => new Uint8Array(hash.digest()) };
}

/** A running checksum of the algorithm. */
export function createChecksum(algorithm: ChecksumAlgorithm): Checksum {
  switch (algorithm) {
    case "CRC32":
      return crc32Hasher();
    case "CRC32C":
      return crc32cHasher();
    case "CRC64NVME":
      return crc64nvmeHasher();
    case "SHA1":
      return hashHasher("sha1");
    case "SHA256":
      return hashHasher("sha256");
  }
}

/** The base64 checksum of some bytes. */
export function checksumOf(algorithm: ChecksumAlgorithm, data: Uint8Array | string): string {
  const hasher = createChecksum(algorithm);
  hasher.update(typeof data === "string" ? new TextEncoder().encode(data) : data);
  return hasher.digest().toBase64();
}

/**
 * A multipart upload's composite checksum: the algorithm over the concatenated raw part checksums, then
 * "-<number of parts>" (minio-protocol-2 §8.4).
 */
export function compositeChecksum(algorithm: ChecksumAlgorithm, partValues: string[]): string {
  const hasher = createChecksum(algorithm);
  for (const value of partValues) hasher.update(Uint8Array.fromBase64(value));
  return `${hasher.digest().toBase64()}-${partValues.length}`;
}
