/**
 * Multipart uploads on disk (minio-protocol §5.16): each upload is a directory of durable parts; completing
 * joins the named parts into one temp file, with the composite ETag `md5(part md5s)-N` and the object's
 * checksum, for the write path (write/upload.ts) to commit like any other version. An upload whose object
 * qualifies for compression (decided at creation) has each part stored gzip-compressed on its own, as MinIO
 * compresses each part; the object is those members joined, with each part's stored size recorded so ranges
 * and heal can find the parts (compression.ts).
 */
import type { ChecksumAlgorithm } from "../../lib/s3/checksums.ts";
import { mkdirDurable, writeFileDurable } from "./durable.ts";
import { commitStagedTo, discardStaged, type StagedData } from "./staging.ts";
import { compareKeys, type Store } from "./store.ts";
import { StoreError } from "../core/errors.ts";
import type { BucketState, PartInfo, UploadInfo } from "../core/records.ts";

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

/** The directory of an upload's record and parts. */
export const uploadDir = (store: Store, { bucket, uploadId }: Pick<UploadRef, "bucket" | "uploadId">) =>
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

/** Creates an upload with what the write path decided for it (settings, checksum, encryption, compression). */
export async function initiateUpload(
  store: Store,
  state: BucketState,
  upload: Omit<UploadInfo, "uploadId" | "initiated">,
): Promise<UploadInfo> {
  const info: UploadInfo = { uploadId: crypto.randomUUID(), initiated: new Date().toISOString(), ...upload };
  const dir = uploadDir(store, { bucket: state.name, uploadId: info.uploadId });
  await mkdirDurable(dir);
  await writeFileDurable(store.tmpDir, `${dir}/upload.json`, JSON.stringify(info));
  return info;
}

/**
 * Refuses a part that cannot be stored (a part number out of range, an upload gone meanwhile), discarding
 * its staged bytes; the upload otherwise.
 */
export async function checkPart(
  store: Store,
  ref: UploadRef,
  partNumber: number,
  staged: StagedData,
): Promise<UploadInfo> {
  try {
    if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS) {
      throw new StoreError(
        "InvalidArgument",
        "Part number must be an integer between 1 and 10000, inclusive",
        400,
      );
    }
    return await readUpload(store, ref);
  } catch (error) {
    await discardStaged(staged);
    throw error;
  }
}

/**
 * Stores a part durably (replacing an earlier upload of the same part number): `stored` is what goes on
 * disk, `part` what ListParts and completion know of it (the size and ETag of the bytes sent).
 */
export async function storePart(
  store: Store,
  ref: UploadRef,
  stored: StagedData,
  part: PartInfo,
): Promise<void> {
  const dir = uploadDir(store, ref);
  await store.locks.run(`upload:${ref.uploadId}:${part.partNumber}`, async () => {
    await commitStagedTo(store, stored, `${dir}/part.${part.partNumber}.data`);
    await writeFileDurable(store.tmpDir, `${dir}/part.${part.partNumber}.json`, JSON.stringify(part));
  });
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

/** Removes a completed upload's directory (what is left is removed at the next start anyway). */
export async function clearUpload(store: Store, ref: UploadRef): Promise<void> {
  await Deno.remove(uploadDir(store, ref), { recursive: true }).catch(() => {});
}
