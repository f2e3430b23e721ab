/**
 * Archives that unpack on upload: the browser packs a folder into a tar and the console streams it to the
 * storage as one PutObject carrying MinIO's `X-Amz-Meta-Snowball-Auto-Extract: true`, so the storage stores
 * each file as an object (MinIO's PutObjectExtract; the embedded storage implements it too). Other S3
 * servers would store the tar itself, so the object browser offers it only where the storage is MinIO.
 */
import { ApiError } from "../http/errors.ts";
import type { S3Client } from "../../lib/s3/client.ts";
import { putObject } from "../../lib/s3/ops/objects.ts";

/** The largest archive one PutObject may carry (S3's single-request limit). */
const MAX_ARCHIVE = 5 * 1024 ** 3;

/**
 * Whether the storage unpacks archives: the embedded one does; an external one does when it is MinIO, which
 * says so in the Server header of its unauthenticated liveness probe (no credentials or admin rights needed).
 * Asked once per storage address; a probe that fails counts as "no" (ordinary uploads still work).
 */
export function archiveSupport(
  storage: { url: string; embedded: boolean },
  fetcher: typeof fetch,
): Promise<boolean> {
  if (storage.embedded) return Promise.resolve(true);
  let known = probes.get(storage.url);
  if (!known) {
    known = fetcher(`${storage.url}/minio/health/live`, { signal: AbortSignal.timeout(5_000) })
      .then(async (response) => {
        await response.body?.cancel();
        return /^MinIO\b/i.test(response.headers.get("server") ?? "");
      })
      .catch(() => false);
    probes.set(storage.url, known);
  }
  return known;
}
const probes = new Map<string, Promise<boolean>>();

/** A folder path as MinIO's prefix header may carry it: printable ASCII (header values are bytes). */
export const prefixFitsHeader = (prefix: string) => /^[\x20-\x7e]*$/.test(prefix);

/**
 * Streams a tar of `length` bytes to the storage, unpacked under `prefix` (a folder path ending in "/", or
 * ""). The storage answers MinIO's error when an entry cannot be stored; the entries before it stay.
 */
export async function uploadArchive(
  client: S3Client,
  bucket: string,
  prefix: string,
  body: ReadableStream<Uint8Array>,
  length: number,
  signal?: AbortSignal,
): Promise<void> {
  if (prefix && !prefix.endsWith("/")) {
    throw ApiError.badRequest("invalid prefix", "The folder path of an archive upload ends with /.");
  }
  if (!prefixFitsHeader(prefix)) {
    throw ApiError.badRequest(
      "invalid prefix",
      "Put a folder path that is not printable ASCII in the archive's entry names instead.",
    );
  }
  if (length > MAX_ARCHIVE) {
    throw new ApiError(413, "archive too large", { detail: "An archive upload can be at most 5 GiB." });
  }
  // The request's own key names no object (MinIO stores only the archive's files): it sits in the folder,
  // so a user allowed to write only there is allowed to send it.
  await putObject(client, bucket, `${prefix}deck-archive.tar`, body, {
    size: length,
    unsignedPayload: true,
    signal,
    headers: {
      "x-amz-meta-snowball-auto-extract": "true",
      ...(prefix ? { "x-amz-meta-minio-snowball-prefix": prefix } : {}),
    },
  });
}
