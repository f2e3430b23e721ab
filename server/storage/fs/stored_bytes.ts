/**
 * Random access to a version's bytes as they are on disk (its data file, or its inline copy in the records
 * log): what decryption reads packages from (sse/) and heal checks SSE-C objects against.
 */
import type { VersionRecord } from "../core/records.ts";
import type { Store } from "./store.ts";

/** Random access to a version's stored bytes. */
export interface StoredBytes {
  /** `length` bytes from `offset`, in `into` when given (and long enough) or a view of bytes held already. */
  read(offset: number, length: number, into?: Uint8Array): Promise<Uint8Array>;
  close(): void;
}

/** Random access to a version's stored bytes (its data file, or its inline copy). */
export async function storedBytesOf(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
): Promise<StoredBytes> {
  if (version.inline) {
    const data = await store.readInline(bucket, key, version.versionId);
    return {
      read: (offset, length) => Promise.resolve(data.subarray(offset, offset + length)),
      close: () => {},
    };
  }
  return await fileBytes(store.dataPath(bucket, key, version.dataFile!));
}

/** Random access to a file's bytes. */
export async function fileBytes(path: string): Promise<StoredBytes> {
  const file = await Deno.open(path, { read: true });
  let closed = false;
  // Reads share the file's position: each runs after the one before (decryption still overlaps them).
  let last: Promise<unknown> = Promise.resolve();
  const readAt = async (offset: number, length: number, into?: Uint8Array) => {
    const out = into && into.length >= length ? into.subarray(0, length) : new Uint8Array(length);
    await file.seek(offset, Deno.SeekMode.Start);
    let filled = 0;
    while (filled < length) {
      const n = await file.read(out.subarray(filled));
      if (n === null) throw new Error("object data ended early");
      filled += n;
    }
    return out;
  };
  return {
    read(offset, length, into) {
      const result = last.then(() => readAt(offset, length, into), () => readAt(offset, length, into));
      last = result.catch(() => {});
      return result;
    },
    close() {
      if (!closed) file.close();
      closed = true;
    },
  };
}
