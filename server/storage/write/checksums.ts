/**
 * Which checksum a write carries and verifying it (minio-protocol-2 §8): a header or an aws-chunked trailer
 * (or a form field), checked while the body streams, so a mismatch fails the body's read and nothing is
 * committed; the algorithm and type a multipart upload declares at creation, and the whole-object value its
 * completion may send.
 */
import {
  CHECKSUM_ALGORITHMS,
  type ChecksumAlgorithm,
  checksumAlgorithmOf,
  checksumHeader,
  createChecksum,
  isChecksumValue,
} from "../../lib/s3/checksums.ts";
import type { Trailer } from "../auth/body.ts";
import { piecesOf, streamOfPieces } from "../fs/pieces.ts";
import type { ExpectedChecksum } from "../fs/upload_join.ts";
import { StoreError } from "../core/errors.ts";
import type { UploadInfo } from "../core/records.ts";

export const invalidChecksum = () => new StoreError("InvalidArgument", "Invalid checksum provided.", 400);
export const checksumMismatch = () =>
  new StoreError(
    "XAmzContentChecksumMismatch",
    "The provided 'x-amz-checksum' header does not match what was computed.",
    400,
  );

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

/**
 * The checksum an upload's parts and object carry: x-amz-checksum-algorithm and (current releases)
 * x-amz-checksum-type; FULL_OBJECT only for CRC types, CRC64NVME always full-object (minio-protocol-2 §8.4).
 */
export function uploadChecksum(headers: Headers): UploadInfo["checksum"] {
  const text = headers.get("x-amz-checksum-algorithm");
  const typeText = headers.get("x-amz-checksum-type")?.toUpperCase();
  if (text === null) {
    if (typeText) throw invalidChecksum();
    return undefined;
  }
  const algorithm = checksumAlgorithmOf(text);
  if (!algorithm || (typeText && typeText !== "COMPOSITE" && typeText !== "FULL_OBJECT")) {
    throw invalidChecksum();
  }
  const isCrc = algorithm.startsWith("CRC");
  if (typeText === "FULL_OBJECT" && !isCrc) throw invalidChecksum();
  if (typeText === "COMPOSITE" && algorithm === "CRC64NVME") throw invalidChecksum();
  const type = algorithm === "CRC64NVME" || typeText === "FULL_OBJECT"
    ? "FULL_OBJECT" as const
    : "COMPOSITE" as const;
  return { algorithm, type };
}

/** A whole-object value sent with CompleteMultipartUpload (composite form "<base64>-<N>" allowed). */
export function expectedObjectChecksum(headers: Headers): ExpectedChecksum | undefined {
  const typeText = headers.get("x-amz-checksum-type")?.toUpperCase();
  if (typeText !== undefined && typeText !== "FULL_OBJECT" && typeText !== "COMPOSITE") {
    throw invalidChecksum();
  }
  const present = CHECKSUM_ALGORITHMS.filter((a) => headers.has(checksumHeader(a)));
  if (present.length > 1) throw invalidChecksum();
  if (present.length === 0) return undefined;
  const algorithm = present[0];
  const m = /^([^-]*)(?:-(\d+))?$/.exec(headers.get(checksumHeader(algorithm))!.trim());
  if (!m || !isChecksumValue(algorithm, m[1])) throw invalidChecksum();
  return { algorithm, value: m[1], parts: m[2] === undefined ? undefined : Number(m[2]), type: typeText };
}
