/**
 * Transparent compression (the `compression` subsystem, minio-protocol §3.8): objects whose name ends in a
 * configured extension or whose content type matches a configured MIME pattern are stored gzip-compressed;
 * reads decompress, so sizes, ETags (MD5 of the original bytes), ranges and listings are those of the
 * original. Formats that are compressed already are never compressed again, as MinIO excludes them.
 */
import { TempFile } from "./durable.ts";
import type { StagedData } from "./staging.ts";
import type { CompressionRule } from "../core/contracts.ts";

/** The stored marker of a compressed version. */
export const COMPRESSED = "gzip";

/** MinIO's standard exclusions (cmd/object-api-utils.go): already compressed content. */
const EXCLUDED_EXTENSIONS = [
  ".gz",
  ".bz2",
  ".rar",
  ".zip",
  ".7z",
  ".xz",
  ".mp4",
  ".mkv",
  ".mov",
  ".jpg",
  ".png",
  ".gif",
];
const EXCLUDED_TYPES = [
  "video/*",
  "audio/*",
  "application/zip",
  "application/x-gzip",
  "application/x-zip-compressed",
  "application/x-compress",
  "application/x-spoon",
];

const matchesType = (
  pattern: string,
  type: string,
) => (pattern.endsWith("*") ? type.startsWith(pattern.slice(0, -1)) : type === pattern);

/** Parses the subsystem's values: null when compression is off or not configured. */
export function compressionRule(values: Record<string, string> | undefined): CompressionRule | null {
  if (!values || values.enable === "off") return null;
  const list = (text = "") => text.split(",").map((v) => v.trim().toLowerCase()).filter(Boolean);
  return {
    extensions: list(values.extensions).map((e) => (e.startsWith(".") ? e : `.${e}`)),
    mimeTypes: list(values.mime_types),
  };
}

export function isCompressible(
  key: string,
  contentType: string | undefined,
  rule: CompressionRule | null,
): boolean {
  if (!rule) return false;
  const name = key.toLowerCase();
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (
    EXCLUDED_EXTENSIONS.some((ext) => name.endsWith(ext)) || EXCLUDED_TYPES.some((p) => matchesType(p, type))
  ) return false;
  if (rule.extensions.length === 0 && rule.mimeTypes.length === 0) return true;
  return rule.extensions.some((ext) => name.endsWith(ext)) ||
    rule.mimeTypes.some((p) => matchesType(p, type));
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The staged bytes compressed (same original size and MD5), and how many bytes are stored. */
export async function compressStaged(
  tmpDir: string,
  staged: StagedData,
): Promise<{ staged: StagedData; storedSize: number }> {
  if (staged.inline) {
    const inline = await collect(
      new Blob([staged.inline as Uint8Array<ArrayBuffer>]).stream().pipeThrough(
        new CompressionStream(COMPRESSED),
      ),
    );
    return { staged: { ...staged, inline }, storedSize: inline.length };
  }
  const source = staged.temp!;
  await source.finish();
  const temp = await TempFile.create(tmpDir);
  let storedSize = 0;
  try {
    const file = await Deno.open(source.path, { read: true });
    for await (const piece of file.readable.pipeThrough(new CompressionStream(COMPRESSED))) {
      temp.writeSync(piece);
      storedSize += piece.length;
    }
  } catch (error) {
    await temp.discard();
    throw error;
  } finally {
    await source.discard();
  }
  return { staged: { ...staged, temp }, storedSize };
}

/** Decompresses stored bytes and gives `length` bytes from `start` of the original. */
export function decompressedSlice(
  stored: ReadableStream<Uint8Array>,
  start: number,
  length: number,
): ReadableStream<Uint8Array> {
  let skip = start;
  let left = length;
  const reader = (stored as ReadableStream<Uint8Array<ArrayBuffer>>).pipeThrough(
    new DecompressionStream(COMPRESSED),
  ).getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (true) {
        if (left <= 0) {
          await reader.cancel().catch(() => {});
          return controller.close();
        }
        const { value, done } = await reader.read();
        if (done) {
          return left > 0
            ? controller.error(new Error("compressed object data ended early"))
            : controller.close();
        }
        let piece = value;
        if (skip > 0) {
          if (piece.length <= skip) {
            skip -= piece.length;
            continue;
          }
          piece = piece.subarray(skip);
          skip = 0;
        }
        if (piece.length > left) piece = piece.subarray(0, left);
        left -= piece.length;
        controller.enqueue(piece);
        return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/** A stored file's bytes decompressed (a compressed multipart part, say). */
export async function* decompressedFile(path: string): AsyncGenerator<Uint8Array> {
  const file = await Deno.open(path, { read: true });
  yield* file.readable.pipeThrough(new DecompressionStream(COMPRESSED));
}

/**
 * `length` bytes from `start` of a multipart object whose parts were compressed each on its own (one gzip
 * member per part, as MinIO compresses each part): only the parts the range touches are read, each from
 * its stored offset, so a range near the end does not decompress the whole object.
 * `storedRange(offset, length)` streams stored bytes; the first part is opened before this returns, so a
 * missing data file fails the read before any byte is sent.
 */
export async function decompressedParts(
  storedRange: (offset: number, length: number) => Promise<ReadableStream<Uint8Array>>,
  plainSizes: number[],
  storedSizes: number[],
  start: number,
  length: number,
): Promise<ReadableStream<Uint8Array>> {
  const pieces: { storedAt: number; storedSize: number; skip: number; take: number }[] = [];
  const end = start + length;
  let plainAt = 0;
  let storedAt = 0;
  for (const [index, size] of plainSizes.entries()) {
    const from = Math.max(start, plainAt);
    const to = Math.min(end, plainAt + size);
    if (to > from) {
      pieces.push({ storedAt, storedSize: storedSizes[index], skip: from - plainAt, take: to - from });
    }
    plainAt += size;
    storedAt += storedSizes[index];
  }
  const open = async (at: number) => {
    const piece = pieces[at];
    return decompressedSlice(await storedRange(piece.storedAt, piece.storedSize), piece.skip, piece.take)
      .getReader();
  };
  let index = 0;
  let reader = pieces.length ? await open(0) : null;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (reader) {
        const { value, done } = await reader.read();
        if (!done) return controller.enqueue(value);
        index++;
        reader = index < pieces.length ? await open(index) : null;
      }
      controller.close();
    },
    cancel(reason) {
      return reader?.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
