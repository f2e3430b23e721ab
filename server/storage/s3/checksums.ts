/**
 * Flexible checksums on the embedded server (minio-protocol-2 §8): which checksum a write carries (a header
 * or an aws-chunked trailer), verifying it while the body streams, and the headers and XML elements that
 * return it. A mismatch fails the body's read, so nothing is committed.
 */
import {
  CHECKSUM_ALGORITHMS,
  type ChecksumAlgorithm,
  checksumAlgorithmOf,
  checksumElement,
  checksumHeader,
  createChecksum,
  isChecksumValue,
} from "../../lib/s3/checksums.ts";
import type { Trailer } from "../auth/body.ts";
import { piecesOf, streamOfPieces } from "../fs/pieces.ts";
import { StoreError } from "../core/errors.ts";
import type { StoredChecksum } from "../core/records.ts";

export const invalidChecksum = () => new StoreError("InvalidArgument", "Invalid checksum provided.", 400);
export const checksumMismatch = () =>
  new StoreError(
    "XAmzContentChecksumMismatch",
    "The provided 'x-amz-checksum' header does not match what was computed.",
    400,
  );

/**
 * A Content-MD5 header that is present must be the base64 of 16 bytes: an empty or malformed one is
 * InvalidDigest (MinIO's etag.FromContentMD5), never taken as "no digest".
 */
export function checkContentMd5(headers: Headers): void {
  const value = headers.get("content-md5");
  if (value === null) return;
  let bytes: Uint8Array | null = null;
  try {
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(value)) bytes = Uint8Array.fromBase64(value);
  } catch { /* not base64 */ }
  if (bytes?.length !== 16) {
    throw new StoreError("InvalidDigest", "The Content-Md5 you specified is not valid.", 400);
  }
}

/** Where a write's expected checksum comes from. */
export interface ChecksumSpec {
  algorithm: ChecksumAlgorithm;
  /** The value from a header (or form field). */
  expected?: string;
  /** The trailer that will carry the value. */
  trailerName?: string;
}

/**
 * Reads the checksum a write declares: at most one `x-amz-checksum-*` header (or one announced trailer);
 * `x-amz-checksum-algorithm` picks which header counts. Malformed declarations are InvalidArgument.
 */
export function declaredChecksum(headers: Headers, trailer?: Trailer): ChecksumSpec | null {
  const trailerNames = (trailer?.announced ?? []).filter((name) => name.startsWith("x-amz-checksum-"));
  if (trailerNames.length > 1) throw invalidChecksum();
  const chosenText = headers.get("x-amz-checksum-algorithm");
  const chosen = chosenText === null ? null : checksumAlgorithmOf(chosenText);
  if (chosenText !== null && !chosen) throw invalidChecksum();
  if (trailerNames.length === 1) {
    const algorithm = checksumAlgorithmOf(trailerNames[0].slice("x-amz-checksum-".length));
    if (!algorithm) throw invalidChecksum();
    return { algorithm, trailerName: trailerNames[0] };
  }
  const present = CHECKSUM_ALGORITHMS.filter((a) => headers.has(checksumHeader(a)));
  if (present.length > 1) throw invalidChecksum();
  const algorithm = chosen ?? present[0];
  if (!algorithm || !headers.has(checksumHeader(algorithm))) return null;
  const expected = headers.get(checksumHeader(algorithm))!.trim();
  if (!isChecksumValue(algorithm, expected)) throw invalidChecksum();
  return { algorithm, expected };
}

/** A body whose checksum is computed as it is read; `value()` is the verified base64 once read to its end. */
export interface ChecksummedBody {
  body: ReadableStream<Uint8Array> | null;
  value(): string | undefined;
}

/**
 * Computes `algorithm` over the body (the declared one, else `compute` when the caller needs a value anyway,
 * such as a part of an upload created with an algorithm) and compares it at the end with the declared value.
 */
export function checksummedBody(
  body: ReadableStream<Uint8Array> | null,
  spec: ChecksumSpec | null,
  trailer?: Trailer,
  compute?: ChecksumAlgorithm,
): ChecksummedBody {
  const algorithm = spec?.algorithm ?? compute;
  if (!algorithm) return { body, value: () => undefined };
  let result: string | undefined;
  const finish = (digest: string) => {
    const expected = spec?.expected ?? (spec?.trailerName ? trailer?.values[spec.trailerName] : undefined);
    if (spec?.trailerName && expected === undefined) throw invalidChecksum();
    if (expected !== undefined) {
      if (!isChecksumValue(algorithm, expected)) throw invalidChecksum();
      if (expected !== digest) throw checksumMismatch();
    }
    result = digest;
  };
  if (!body) {
    finish(createChecksum(algorithm).digest().toBase64());
    return { body, value: () => result };
  }
  async function* pieces(): AsyncGenerator<Uint8Array> {
    const hasher = createChecksum(algorithm!);
    for await (const piece of piecesOf(body!)) {
      hasher.update(piece);
      yield piece;
    }
    finish(hasher.digest().toBase64());
  }
  return { body: streamOfPieces({ pieces, cancel: (reason) => body.cancel(reason) }), value: () => result };
}

/** Response headers announcing a stored checksum (PUT answers; GET/HEAD with checksum mode). */
export function checksumHeaders(checksum: StoredChecksum | undefined): Record<string, string> {
  if (!checksum) return {};
  return { [checksumHeader(checksum.algorithm)]: checksum.value, "x-amz-checksum-type": checksum.type };
}

/** The XML element carrying a checksum (ListParts, CompleteMultipartUpload results). */
export function checksumXml(
  checksum: Pick<StoredChecksum, "algorithm" | "value"> | undefined,
): Record<string, string> {
  return checksum ? { [checksumElement(checksum.algorithm)]: checksum.value } : {};
}
