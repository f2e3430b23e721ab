import { StoreError } from "./errors.ts";
/**
 * Bodies the front reads whole before handing them on (admin API, STS): bounded, and refused before reading
 * when their declared length is already too large.
 */

/** Admin request bodies larger than this are refused (minio-protocol §3.1). */
export const MAX_ADMIN_BODY = 262272;

/** STS form bodies are read before anyone is known (web identity): a few tokens and a policy fit in this. */
export const MAX_STS_BODY = 64 * 1024;

export const adminTooLarge = () =>
  new StoreError(
    "XMinioAdminConfigTooLarge",
    "Configuration data provided exceeds the allowed maximum of 256KiB",
    400,
  );
export const stsTooLarge = () =>
  new StoreError(
    "MaxMessageLengthExceeded",
    `Your request was too big: STS requests are limited to ${MAX_STS_BODY} bytes.`,
    413,
  );

/**
 * Reads a body of at most `limit` bytes: a larger declared Content-Length is refused before reading, and a
 * body without one is refused as soon as it passes the limit, so nothing beyond `limit` is ever held.
 */
export async function readAll(
  body: ReadableStream<Uint8Array> | null,
  declaredLength: string | null,
  limit: number,
  tooLarge: () => StoreError,
): Promise<Uint8Array> {
  if (declaredLength !== null && Number(declaredLength) > limit) throw tooLarge();
  if (!body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    chunks.push(chunk);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
