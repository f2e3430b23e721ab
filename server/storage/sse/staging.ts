/**
 * Receiving an encrypted upload's body: it is hashed (MD5 of the plaintext, for the ETag) and sealed into
 * packages as it arrives, so its plaintext never reaches the disk and its bytes are written once. Up to
 * four 1 MiB batches are sealed at a time (WebCrypto works off the request thread) while the body is read.
 * Small bodies (up to the inline limit) are kept in memory and sealed whole.
 */
import { createHash } from "node:crypto";
import { TempFile } from "../fs/durable.ts";
import { piecesOf } from "../fs/pieces.ts";
import { INLINE_LIMIT, type StagedData } from "../fs/staging.ts";
import type { Store } from "../fs/store.ts";
import { encryptBytes, PACKAGE_SIZE, StreamSealer } from "./packages.ts";
import type { SseWrite } from "./stored.ts";
import { StoreError } from "../core/errors.ts";

const BATCH = 16 * PACKAGE_SIZE;
const IN_FLIGHT = 4;

const incomplete = () =>
  new StoreError(
    "IncompleteBody",
    "You did not provide the number of bytes specified by the Content-Length HTTP header.",
    400,
  );

/** Stages `total` bytes of `body` encrypted with `objectKey`; `stored` describes what was written. */
export async function stageEncrypted(
  store: Store,
  body: ReadableStream<Uint8Array> | null,
  objectKey: Uint8Array,
  total: number,
  options: { digest?: boolean } = {},
): Promise<{ staged: StagedData; stored: { size: number; digest?: string } }> {
  const md5 = createHash("md5");
  const digest = options.digest ? createHash("sha256") : null;
  let size = 0;
  const take = (piece: Uint8Array) => {
    size += piece.length;
    if (size > total) throw incomplete();
    md5.update(piece);
  };
  if (total <= INLINE_LIMIT) {
    const plain = new Uint8Array(total);
    if (body) {
      for await (const piece of piecesOf(body)) {
        const at = size;
        take(piece);
        plain.set(piece, at);
      }
    }
    if (size !== total) throw incomplete();
    const inline = await encryptBytes(objectKey, plain);
    digest?.update(inline);
    return {
      staged: { temp: null, inline, size, md5Hex: md5.digest("hex") },
      stored: { size: inline.length, digest: digest?.digest("hex") },
    };
  }
  const temp = await TempFile.create(store.tmpDir);
  let storedSize = 0;
  const write = (piece: Uint8Array) => {
    digest?.update(piece);
    temp.writeSync(piece);
    storedSize += piece.length;
  };
  const sealing: Promise<Uint8Array>[] = [];
  try {
    const sealer = await StreamSealer.create(objectKey, total);
    write(sealer.salt);
    let batch = new Uint8Array(BATCH);
    let filled = 0;
    if (body) {
      for await (const piece of piecesOf(body)) {
        take(piece);
        for (let at = 0; at < piece.length;) {
          const n = Math.min(piece.length - at, BATCH - filled);
          batch.set(piece.subarray(at, at + n), filled);
          filled += n;
          at += n;
          if (filled === BATCH) {
            // seal() numbers its packages when called: batches are sealed in order even while in flight.
            sealing.push(sealer.seal(batch));
            batch = new Uint8Array(BATCH);
            filled = 0;
            if (sealing.length >= IN_FLIGHT) write(await sealing.shift()!);
          }
        }
      }
    }
    if (size !== total) throw incomplete();
    if (filled > 0) sealing.push(sealer.seal(batch.subarray(0, filled)));
    while (sealing.length) write(await sealing.shift()!);
    await temp.finish();
  } catch (error) {
    await Promise.allSettled(sealing);
    await temp.discard();
    throw error;
  }
  return {
    staged: { temp, inline: null, size, md5Hex: md5.digest("hex") },
    stored: { size: storedSize, digest: digest?.digest("hex") },
  };
}

/** PutObject's hook: stages the body encrypted and notes on `write` that it is stored already. */
export async function stageForWrite(
  store: Store,
  body: ReadableStream<Uint8Array> | null,
  write: SseWrite,
  total: number,
): Promise<StagedData> {
  const { staged, stored } = await stageEncrypted(store, body, write.objectKey!, total, {
    digest: write.key.type === "SSE-C",
  });
  write.stored = stored;
  return staged;
}
