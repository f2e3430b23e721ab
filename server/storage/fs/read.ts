/**
 * Reading a version's bytes: from its tier when transitioned, decompressed when stored compressed, decrypted
 * when encrypted (by the decryptor sse/ gives the reader), else straight from its data file or inline copy.
 */
import { decompressedParts, decompressedSlice } from "./compression.ts";
import { type StoredBytes, storedBytesOf } from "./stored_bytes.ts";
import type { Store } from "./store.ts";
import { StoreError } from "../core/errors.ts";
import type { VersionRecord } from "../core/records.ts";
import { osCall } from "../streams/calls.ts";

/** Turns an encrypted version's stored bytes (one stream per segment) into a plaintext range (sse/stored.ts). */
export type Decryptor = (
  stored: StoredBytes,
  segments: number[],
  start: number,
  length: number,
) => ReadableStream<Uint8Array>;

/**
 * A version's bytes from `start` for `length` bytes, streamed from its file or from its inline copy. An
 * encrypted version needs its decryptor (sse/request.ts sseForRead, or sse/stored.ts serverDecryptor).
 */
export async function readVersion(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
  start = 0,
  length = version.size,
  decrypt?: Decryptor,
): Promise<ReadableStream<Uint8Array>> {
  // Lifecycle hook: a transitioned version's bytes are read through from its tier (encrypted versions stay local).
  if (version.transition) return await store.tiered!.read(version, start, length);
  // MinIO's names: inline data comes with the version's record (ReadVersion), a data file is opened (ReadFileStream).
  const read = () => readLocal(store, bucket, key, version, start, length, decrypt);
  return await store.traced(
    version.inline ? "ReadVersion" : "ReadFileStream",
    `${bucket}/${key}`,
    read,
    length,
  );
}

async function readLocal(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
  start: number,
  length: number,
  decrypt?: Decryptor,
): Promise<ReadableStream<Uint8Array>> {
  if (version.compression) {
    const raw: VersionRecord = {
      ...version,
      compression: undefined,
      storedPartSizes: undefined,
      size: version.storedSize ?? 0,
    };
    const storedRange = (offset: number, bytes: number) =>
      readLocal(store, bucket, key, raw, offset, bytes, decrypt);
    // A multipart object's parts were compressed each on its own: a range reads only the parts it touches.
    if (version.storedPartSizes && version.partSizes) {
      return await decompressedParts(storedRange, version.partSizes, version.storedPartSizes, start, length);
    }
    return decompressedSlice(await storedRange(0, version.storedSize ?? 0), start, length);
  }
  // SSE: the decryptor reads only the packages the range touches.
  if (version.sse) {
    if (!decrypt) throw new StoreError("InternalError", "reading an encrypted object needs its key", 500);
    const segments = version.partSizes?.length ? version.partSizes : [version.size];
    return decrypt(await storedBytesOf(store, bucket, key, version), segments, start, length);
  }
  if (version.inline) {
    const data = await store.readInline(bucket, key, version.versionId);
    return new Blob([data.subarray(start, start + length) as Uint8Array<ArrayBuffer>]).stream();
  }
  const path = store.dataPath(bucket, key, version.dataFile!);
  const file = await osCall("OpenFileR", path, () => Deno.open(path, { read: true }));
  return fileSlice(file, start, length);
}

/** A stream of `length` bytes of a file from `start`; closes the file when done or cancelled. */
function fileSlice(file: Deno.FsFile, start: number, length: number): ReadableStream<Uint8Array> {
  let remaining = length;
  let positioned = start === 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!positioned) {
        await file.seek(start, Deno.SeekMode.Start);
        positioned = true;
      }
      if (remaining <= 0) {
        file.close();
        return controller.close();
      }
      // 1 MiB pieces: each piece costs a write to the connection, and larger ones send faster.
      const buffer = new Uint8Array(Math.min(remaining, 1024 * 1024));
      const read = await file.read(buffer);
      if (read === null || read === 0) {
        file.close();
        return controller.error(new Error("object data ended early"));
      }
      remaining -= read;
      controller.enqueue(buffer.subarray(0, read));
    },
    cancel() {
      try {
        file.close();
      } catch { /* already closed */ }
    },
  }, { highWaterMark: 0 });
}
