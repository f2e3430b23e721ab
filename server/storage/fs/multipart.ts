/**
 * Multipart uploads on disk (minio-protocol §5.16): each upload is a directory of durable parts; completing
 * concatenates the named parts into one temp file and commits it like any other version, with the composite
 * ETag `md5(part md5s)-N`. An upload whose object qualifies for compression (decided at creation) stores each
 * part gzip-compressed on its own, as MinIO compresses each part; the object is those members joined, with
 * each part's stored size recorded so ranges and heal can find the parts (compression.ts).
 */
import { type ChecksumAlgorithm, compositeChecksum, createChecksum } from "../../lib/s3/checksums.ts";
import { Md5 } from "../../lib/s3/md5.ts";
import { mkdirDurable, TempFile, writeFileDurable } from "./durable.ts";
import { compressStaged, decompressedFile } from "./compression.ts";
import {
  commitStagedTo,
  commitVersion,
  discardStaged,
  type StagedData,
  type WriteOptions,
} from "./objects.ts";
import { EncryptedJoin } from "../sse/stored.ts";
import { compareKeys, type Store } from "./store.ts";
import { StoreError } from "../core/errors.ts";
import type {
  BucketState,
  PartInfo,
  StoredChecksum,
  UploadInfo,
  UploadSse,
  VersionRecord,
} from "../core/records.ts";

const MIN_PART_SIZE = 5 * 1024 * 1024;
const MAX_PARTS = 10000;

/** A part named in CompleteMultipartUpload, with the checksum elements it carried. */
export interface RequestedPart {
  partNumber: number;
  etag: string;
  checksums?: Partial<Record<ChecksumAlgorithm, string>>;
}

/**
 * An upload as a request names it. The id alone is not enough: an upload belongs to one bucket (its directory
 * is under the bucket's) and one key, and a request naming another key gets NoSuchUpload like an unknown id;
 * otherwise a user allowed one prefix could list or abort the uploads of any other key whose id it learned.
 */
export interface UploadRef {
  bucket: string;
  key: string;
  uploadId: string;
}

const uploadDir = (store: Store, { bucket, uploadId }: Pick<UploadRef, "bucket" | "uploadId">) =>
  `${store.bucketDir(bucket)}/uploads/${uploadId}`;

const noSuchUpload = () =>
  new StoreError(
    "NoSuchUpload",
    "The specified multipart upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.",
    404,
  );

/** The upload's record, when the upload exists in that bucket for that key; NoSuchUpload otherwise. */
export async function readUpload(store: Store, ref: UploadRef): Promise<UploadInfo> {
  if (!/^[0-9a-f-]{36}$/.test(ref.uploadId)) throw noSuchUpload();
  let upload: UploadInfo;
  try {
    upload = JSON.parse(await Deno.readTextFile(`${uploadDir(store, ref)}/upload.json`));
  } catch {
    throw noSuchUpload();
  }
  if (upload.key !== ref.key) throw noSuchUpload();
  return upload;
}

export async function initiateUpload(
  store: Store,
  state: BucketState,
  key: string,
  options: UploadInfo["options"],
  checksum?: UploadInfo["checksum"],
  sse?: UploadSse,
  compress = false,
): Promise<UploadInfo> {
  const info: UploadInfo = {
    uploadId: crypto.randomUUID(),
    key,
    initiated: new Date().toISOString(),
    options,
    checksum,
    ...(sse ? { sse } : compress ? { compress } : {}),
  };
  const dir = uploadDir(store, { bucket: state.name, uploadId: info.uploadId });
  await mkdirDurable(dir);
  await writeFileDurable(store.tmpDir, `${dir}/upload.json`, JSON.stringify(info));
  return info;
}

/** Stores a part durably (replacing an earlier upload of the same part number). */
export async function storePart(
  store: Store,
  ref: UploadRef,
  partNumber: number,
  staged: StagedData,
  checksum?: PartInfo["checksum"],
): Promise<PartInfo> {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) {
    await discardStaged(staged);
    throw new StoreError(
      "InvalidArgument",
      "Part number must be an integer between 1 and 10000, inclusive",
      400,
    );
  }
  let upload: UploadInfo;
  try {
    upload = await readUpload(store, ref);
  } catch (error) {
    await discardStaged(staged);
    throw error;
  }
  const dir = uploadDir(store, ref);
  const part: PartInfo = {
    partNumber,
    etag: staged.md5Hex,
    size: staged.size,
    lastModified: new Date().toISOString(),
    checksum,
  };
  // The part's size and ETag stay those of the bytes sent; what is stored is their gzip member.
  if (upload.compress && !upload.sse) staged = (await compressStaged(store.tmpDir, staged)).staged;
  await store.locks.run(`upload:${ref.uploadId}:${partNumber}`, async () => {
    await commitStagedTo(store, staged, `${dir}/part.${partNumber}.data`);
    await writeFileDurable(store.tmpDir, `${dir}/part.${partNumber}.json`, JSON.stringify(part));
  });
  return part;
}

export async function listParts(store: Store, ref: UploadRef): Promise<PartInfo[]> {
  await readUpload(store, ref);
  const parts: PartInfo[] = [];
  for await (const entry of Deno.readDir(uploadDir(store, ref))) {
    if (!/^part\.\d+\.json$/.test(entry.name)) continue;
    try {
      parts.push(JSON.parse(await Deno.readTextFile(`${uploadDir(store, ref)}/${entry.name}`)));
    } catch { /* a part mid-write */ }
  }
  return parts.sort((a, b) => a.partNumber - b.partNumber);
}

export async function listUploads(store: Store, bucket: string, prefix: string): Promise<UploadInfo[]> {
  const uploads: UploadInfo[] = [];
  const dir = `${store.bucketDir(bucket)}/uploads`;
  try {
    for await (const entry of Deno.readDir(dir)) {
      try {
        const info: UploadInfo = JSON.parse(await Deno.readTextFile(`${dir}/${entry.name}/upload.json`));
        if (info.key.startsWith(prefix)) uploads.push(info);
      } catch { /* incomplete initiation */ }
    }
  } catch { /* no uploads yet */ }
  return uploads.sort((a, b) => compareKeys(a.key, b.key) || (a.uploadId < b.uploadId ? -1 : 1));
}

export async function abortUpload(store: Store, ref: UploadRef): Promise<void> {
  await readUpload(store, ref);
  await Deno.remove(uploadDir(store, ref), { recursive: true });
}

const invalidPart = () =>
  new StoreError(
    "InvalidPart",
    "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
    400,
  );

/**
 * Completes an upload from the listed parts; validates order, ETags, part checksums and minimum part sizes.
 * `expectedChecksum` is a whole-object value the request declared (x-amz-checksum-<alg>).
 */
export async function completeUpload(
  store: Store,
  state: BucketState,
  ref: Omit<UploadRef, "bucket">,
  requested: RequestedPart[],
  options: Pick<WriteOptions, "beforeCommit" | "precondition" | "replication"> & {
    expectedChecksum?: ExpectedChecksum;
    sse?: EncryptedJoin;
  } = {},
): Promise<{ key: string; version: VersionRecord }> {
  const at = { ...ref, bucket: state.name };
  const upload = await readUpload(store, at);
  if (requested.length === 0) throw new StoreError("MalformedXML", "You must specify at least one part", 400);
  const stored = new Map((await listParts(store, at)).map((p) => [p.partNumber, p]));
  const parts: PartInfo[] = [];
  requested.forEach((want, index) => {
    if (index > 0 && want.partNumber <= requested[index - 1].partNumber) {
      throw new StoreError(
        "InvalidPartOrder",
        "The list of parts was not in ascending order. The parts list must be specified in order by part number.",
        400,
      );
    }
  });
  for (const [index, want] of requested.entries()) {
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
    parts.push(part);
  }
  const wanted = upload.checksum;
  const expected = options.expectedChecksum;
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
  // A whole-object checksum is computed over the bytes as they are joined; a composite one from the parts'.
  const whole = wanted?.type === "FULL_OBJECT" ? createChecksum(wanted.algorithm) : null;
  const sse = options.sse;
  const temp = await TempFile.create(store.tmpDir);
  const partHashes = new Md5();
  const compressed = !!upload.compress && !sse;
  const storedPartSizes: number[] = [];
  let size = 0;
  try {
    const dir = uploadDir(store, at);
    for (const part of parts) {
      partHashes.update(Uint8Array.fromHex(part.etag));
      const path = `${dir}/part.${part.partNumber}.data`;
      const file = await Deno.open(path, { read: true });
      const before = size;
      for await (const chunk of file.readable) {
        size += chunk.length;
        // SSE hook: encrypted parts are joined as stored; a full-object checksum is taken over their plaintext.
        if (sse) sse.observe(chunk);
        else if (!compressed) whole?.update(chunk);
        await temp.write(chunk);
      }
      storedPartSizes.push(size - before);
      if (sse && whole) { for await (const chunk of sse.plaintext(path, part.size)) whole.update(chunk); }
      // Compressed parts are joined as stored too; a full-object checksum is taken over what they hold.
      if (compressed && whole) { for await (const chunk of decompressedFile(path)) whole.update(chunk); }
    }
    await temp.finish();
  } catch (error) {
    await temp.discard();
    throw error;
  }
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
    await temp.discard();
    throw error;
  }
  const etag = `${partHashes.digestHex()}-${parts.length}`;
  const plainSize = sse || compressed ? parts.reduce((n, p) => n + p.size, 0) : size;
  const staged: StagedData = { temp, inline: null, size: plainSize, md5Hex: "" };
  const version = await commitVersion(store, state, upload.key, staged, {
    ...upload.options,
    etag,
    checksum,
    partSizes: parts.map((p) => p.size),
    partChecksums: checksum ? parts.map((p) => p.checksum?.value ?? "") : undefined,
    beforeCommit: options.beforeCommit,
    precondition: options.precondition,
    replication: options.replication,
    sse: sse?.finish(size),
    ...(compressed ? { compressedParts: storedPartSizes } : {}),
  });
  await Deno.remove(uploadDir(store, at), { recursive: true }).catch(() => {});
  return { key: upload.key, version };
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
