/**
 * Completing a multipart upload on disk (minio-protocol §5.16): the parts a CompleteMultipartUpload names are
 * checked (order, ETags, part checksums, minimum sizes) and joined as stored into one temp file, with the
 * composite ETag `md5(part md5s)-N` and the object's checksum (composite from the parts', or full-object
 * over the bytes as joined). The write path (write/upload.ts) commits the result like any other version.
 * Encrypted parts are joined as stored through a PartJoin (sse/stored.ts EncryptedJoin); compressed parts
 * are joined as their gzip members.
 */
import { type ChecksumAlgorithm, compositeChecksum, createChecksum } from "../../lib/s3/checksums.ts";
import { Md5 } from "../../lib/s3/md5.ts";
import { decompressedFile } from "./compression.ts";
import { TempFile } from "./durable.ts";
import { listParts, readUpload, type RequestedPart, uploadDir, type UploadRef } from "./multipart.ts";
import type { StagedData } from "./staging.ts";
import type { Store } from "./store.ts";
import { StoreError } from "../core/errors.ts";
import type { PartInfo, StoredChecksum, UploadInfo } from "../core/records.ts";

const MIN_PART_SIZE = 5 * 1024 * 1024;

/** How encrypted parts are joined: what sees each stored chunk, and what gives a part's plaintext back. */
export interface PartJoin {
  observe(stored: Uint8Array): void;
  plaintext(path: string, size: number): AsyncIterable<Uint8Array>;
}

/**
 * A whole-object checksum sent with CompleteMultipartUpload: the value as base64, with the part count when
 * sent in the composite form `<base64>-<N>` (SDKs also send a composite value without it), and the
 * x-amz-checksum-type the request named, if any.
 */
export interface ExpectedChecksum {
  algorithm: ChecksumAlgorithm;
  value: string;
  parts?: number;
  type?: StoredChecksum["type"];
}

/** An upload's parts joined, ready to commit: the temp file holds them as stored. */
export interface JoinedUpload {
  upload: UploadInfo;
  /** The joined bytes; `size` is the object's (plaintext, uncompressed) size. */
  staged: StagedData;
  etag: string;
  checksum?: StoredChecksum;
  partSizes: number[];
  /** Each part's checksum value, when the object has a checksum. */
  partChecksums?: string[];
  /** Bytes joined, as stored. */
  storedSize: number;
  /** Bytes of each part as stored: its gzip member when the upload is compressed. */
  storedPartSizes: number[];
  /** The parts were joined as gzip members. */
  compressed: boolean;
}

const invalidPart = () =>
  new StoreError(
    "InvalidPart",
    "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
    400,
  );

/**
 * Joins the listed parts of an upload, checking them first; `expected` is a whole-object value the request
 * declared (x-amz-checksum-<alg>), `join` the encrypted upload's joiner. The caller discards or commits the
 * result's staged bytes.
 */
export async function joinParts(
  store: Store,
  ref: UploadRef,
  requested: RequestedPart[],
  options: { expected?: ExpectedChecksum; join?: PartJoin } = {},
): Promise<JoinedUpload> {
  const upload = await readUpload(store, ref);
  if (requested.length === 0) throw new StoreError("MalformedXML", "You must specify at least one part", 400);
  const parts = namedParts(upload, requested, await listParts(store, ref));
  const wanted = upload.checksum;
  const expected = options.expected;
  if (
    expected && wanted &&
    (expected.algorithm !== wanted.algorithm || (expected.type && expected.type !== wanted.type))
  ) {
    throw new StoreError(
      "InvalidArgument",
      `checksum type mismatch: the upload uses ${wanted.algorithm} (${wanted.type})`,
      400,
    );
  }
  const compressed = !!upload.compress && !options.join;
  // A whole-object checksum is computed over the bytes as they are joined; a composite one from the parts'.
  const whole = wanted?.type === "FULL_OBJECT" ? createChecksum(wanted.algorithm) : null;
  const joined = await joinFiles(store, uploadDir(store, ref), parts, {
    whole,
    compressed,
    join: options.join,
  });
  let checksum: StoredChecksum | undefined;
  try {
    checksum = wanted && objectChecksum(wanted, parts, whole);
    if (expected && !checksumMatches(expected, checksum, parts.length)) {
      throw new StoreError(
        "XAmzContentChecksumMismatch",
        "The provided 'x-amz-checksum' header does not match what was computed.",
        400,
      );
    }
  } catch (error) {
    await joined.temp.discard();
    throw error;
  }
  const plainSize = options.join || compressed ? parts.reduce((n, p) => n + p.size, 0) : joined.size;
  return {
    upload,
    staged: { temp: joined.temp, inline: null, size: plainSize, md5Hex: "" },
    etag: `${joined.partHashes.digestHex()}-${parts.length}`,
    checksum,
    partSizes: parts.map((p) => p.size),
    partChecksums: checksum ? parts.map((p) => p.checksum?.value ?? "") : undefined,
    storedSize: joined.size,
    storedPartSizes: joined.storedPartSizes,
    compressed,
  };
}

/** The stored parts the request names, in its order, each checked against what was uploaded. */
function namedParts(upload: UploadInfo, requested: RequestedPart[], uploaded: PartInfo[]): PartInfo[] {
  const stored = new Map(uploaded.map((p) => [p.partNumber, p]));
  requested.forEach((want, index) => {
    if (index > 0 && want.partNumber <= requested[index - 1].partNumber) {
      throw new StoreError(
        "InvalidPartOrder",
        "The list of parts was not in ascending order. The parts list must be specified in order by part number.",
        400,
      );
    }
  });
  return requested.map((want, index) => {
    const part = stored.get(want.partNumber);
    if (!part || part.etag !== want.etag.replace(/"/g, "")) throw invalidPart();
    // A part's checksum element, when given, must be the one verified at upload (minio-protocol-2 §8.4).
    for (const [algorithm, value] of Object.entries(want.checksums ?? {})) {
      if (part.checksum?.algorithm === algorithm ? part.checksum.value !== value : !!upload.checksum) {
        throw invalidPart();
      }
    }
    if (index < requested.length - 1 && part.size < MIN_PART_SIZE) {
      throw new StoreError(
        "EntityTooSmall",
        "Your proposed upload is smaller than the minimum allowed object size.",
        400,
      );
    }
    return part;
  });
}

/** Copies the parts' stored bytes into one temp file, feeding the full-object checksum what they hold. */
async function joinFiles(
  store: Store,
  dir: string,
  parts: PartInfo[],
  { whole, compressed, join }: {
    whole: ReturnType<typeof createChecksum> | null;
    compressed: boolean;
    join?: PartJoin;
  },
): Promise<{ temp: TempFile; size: number; storedPartSizes: number[]; partHashes: Md5 }> {
  const temp = await TempFile.create(store.tmpDir);
  const partHashes = new Md5();
  const storedPartSizes: number[] = [];
  let size = 0;
  try {
    for (const part of parts) {
      partHashes.update(Uint8Array.fromHex(part.etag));
      const path = `${dir}/part.${part.partNumber}.data`;
      const file = await Deno.open(path, { read: true });
      const before = size;
      for await (const chunk of file.readable) {
        size += chunk.length;
        // Encrypted parts are joined as stored; a full-object checksum is taken over their plaintext.
        if (join) join.observe(chunk);
        else if (!compressed) whole?.update(chunk);
        await temp.write(chunk);
      }
      storedPartSizes.push(size - before);
      if (join && whole) { for await (const chunk of join.plaintext(path, part.size)) whole.update(chunk); }
      // Compressed parts are joined as stored too; a full-object checksum is taken over what they hold.
      if (compressed && whole) { for await (const chunk of decompressedFile(path)) whole.update(chunk); }
    }
    await temp.finish();
  } catch (error) {
    await temp.discard();
    throw error;
  }
  return { temp, size, storedPartSizes, partHashes };
}

/**
 * Whether the declared value is the object's (MinIO's rules): a full-object CRC is compared as it is; a
 * composite one by its digest, and by its part count when that was sent. An upload without a checksum has
 * none to match.
 */
function checksumMatches(
  expected: ExpectedChecksum,
  actual: StoredChecksum | undefined,
  parts: number,
): boolean {
  if (!actual) return false;
  if (actual.type === "FULL_OBJECT") return expected.parts === undefined && expected.value === actual.value;
  if (expected.parts !== undefined && expected.parts !== parts) return false;
  return expected.value === actual.value.replace(/-\d+$/, "");
}

/** The completed object's checksum: combined from the parts' (composite) or computed over the whole. */
function objectChecksum(
  wanted: NonNullable<UploadInfo["checksum"]>,
  parts: PartInfo[],
  whole: ReturnType<typeof createChecksum> | null,
): StoredChecksum {
  if (whole) return { algorithm: wanted.algorithm, value: whole.digest().toBase64(), type: "FULL_OBJECT" };
  const values = parts.map((p) => {
    if (p.checksum?.algorithm !== wanted.algorithm) throw invalidPart();
    return p.checksum.value;
  });
  return {
    algorithm: wanted.algorithm,
    value: compositeChecksum(wanted.algorithm, values),
    type: "COMPOSITE",
  };
}
