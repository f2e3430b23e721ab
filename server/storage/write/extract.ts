/**
 * An archive unpacked on upload (MinIO's PutObjectExtract): each file of a tar, plain or gzip, becomes an
 * object through writeObject, the same steps as a PutObject (permission per key, object lock defaults,
 * encryption, checksum, quota, replication, event), so each object appears whole or not at all. Entries are
 * stored in archive order straight from the request's stream (small files a few at once, as MinIO does): a damaged archive leaves the
 * objects before the damage and nothing after it.
 *
 * Names, as MinIO's untar makes them: the entry's path cleaned (Go's path.Clean: "a//./b" → "a/b"), its
 * leading "/" dropped (an absolute path lands inside the prefix), then the prefix in front. A name that still
 * climbs ("../x") is refused like any key with a ".." segment, so nothing leaves the prefix (MinIO would join
 * it onto the prefix first and land it beside it). Symbolic and hard links are skipped, never followed.
 */
import { contentTypeOf } from "../../lib/contract/content_types.ts";
import { rawUtf8HeaderText } from "../../lib/s3/header_text.ts";
import { readTar, type TarEntry, TarError } from "../../lib/formats/tar_reader.ts";
import { objectKeyProblem } from "../fs/names.ts";
import { accessDenied, StoreError } from "../core/errors.ts";
import { writeObject } from "./object.ts";
import type { WriteContext } from "./path.ts";

/** MinIO's three optional request headers (its internal/http constants). */
export interface ExtractOptions {
  /** X-Amz-Meta-Minio-Snowball-Prefix, as a key prefix ending in "/" (or ""). */
  prefix: string;
  /** X-Amz-Meta-Minio-Snowball-Ignore-Dirs: no "dir/" objects for directory entries. */
  ignoreDirs: boolean;
  /** X-Amz-Meta-Minio-Snowball-Ignore-Errors: a file that cannot be stored is skipped, not fatal. */
  ignoreErrors: boolean;
}

/** Request headers every extracted object is written with; the rest describe the archive itself. */
const PER_OBJECT = /^(x-amz-server-side-encryption.*|x-amz-object-lock-.*|x-amz-storage-class)$/;

/** Go's path.Clean, which MinIO's names go through. */
export function cleanPath(path: string): string {
  const rooted = path.startsWith("/");
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop();
    else if (part === ".." && rooted) continue;
    else out.push(part);
  }
  const joined = out.join("/");
  return rooted ? `/${joined}` : joined || ".";
}

/** The extraction's options from the request's headers; the prefix is refused if no key could carry it. */
export function extractOptions(headers: Headers): ExtractOptions {
  // Raw UTF-8, as minio-go sends it, is the prefix's text (Go reads header bytes as they are).
  const raw = rawUtf8HeaderText(headers.get("x-amz-meta-minio-snowball-prefix") ?? "");
  const cleaned = raw ? cleanPath(raw).replace(/^\/+/, "") : "";
  const prefix = cleaned && cleaned !== "." ? `${cleaned}/` : "";
  if (prefix && objectKeyProblem(prefix)) throw invalidName(objectKeyProblem(prefix)!);
  return {
    prefix,
    ignoreDirs: headers.get("x-amz-meta-minio-snowball-ignore-dirs")?.toLowerCase() === "true",
    ignoreErrors: headers.get("x-amz-meta-minio-snowball-ignore-errors")?.toLowerCase() === "true",
  };
}

const invalidName = (problem: string) =>
  new StoreError(problem.includes("1024") ? "KeyTooLongError" : "XMinioInvalidObjectName", problem, 400);

/** The key an entry is stored under, or null for the archive's root ("./"). */
function keyOf(name: string, directory: boolean, prefix: string): string | null {
  const cleaned = cleanPath(name).replace(/^\/+/, "");
  if (cleaned === "." || cleaned === "") return null;
  const key = prefix + cleaned + (directory ? "/" : "");
  const problem = objectKeyProblem(key);
  if (problem) throw invalidName(problem);
  return key;
}

/** Files up to this size are read whole and written while the next entries are read (MinIO's threshold). */
const SMALL_FILE = 128 * 1024;
/** Small files written at once: more than MinIO's 16, as concurrent commits share one fdatasync of the record log. */
const WRITERS = 64;

/**
 * Unpacks `body` into the context's bucket; returns how many objects were stored. A name or permission
 * refused stops the archive at that entry; a small file's write runs while the next entries are read, so a
 * write refused late (quota) may leave a few files after it stored, as MinIO's untar does.
 */
export async function extractArchive(
  ctx: WriteContext,
  body: ReadableStream<Uint8Array>,
  options: ExtractOptions,
): Promise<number> {
  const kept = new Headers();
  ctx.request.headers.forEach((value, name) => PER_OBJECT.test(name) && kept.set(name, value));
  let stored = 0;
  // Concurrent writes would each check the quota against the same usage: under a quota, one at a time.
  const writers = (await ctx.facts.bucketQuota(ctx.bucket)) > 0 ? 1 : WRITERS;
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  const write = async (key: string, entry: TarEntry, bytes?: Uint8Array) => {
    const headers = new Headers(kept);
    headers.set("content-type", contentTypeOf(key));
    const isFile = entry.type === "file";
    const stream = bytes ? oneChunk(bytes) : isFile ? entry.body : null;
    try {
      await writeObject({ ...ctx, key }, {
        kind: "extract",
        headers,
        body: () => Promise.resolve(stream),
        length: isFile ? entry.size : 0,
        // As MinIO: the file's modification time, unless the archive gives none.
        dated: entry.modified.getTime() > 0 ? entry.modified : undefined,
      });
      stored++;
    } catch (error) {
      if (error instanceof TarError || !options.ignoreErrors) failure ??= { error };
    }
  };
  try {
    for await (const entry of readTar(body)) {
      if (failure) break;
      if (entry.type === "other" || (entry.type === "directory" && options.ignoreDirs)) continue;
      let key: string | null;
      try {
        key = keyOf(entry.name, entry.type === "directory", options.prefix);
        if (key !== null && !ctx.allowed("s3:PutObject", ctx.bucket, key)) throw accessDenied();
      } catch (error) {
        if (options.ignoreErrors) continue;
        throw error;
      }
      if (key === null) continue;
      if (entry.type === "file" && entry.size > SMALL_FILE) {
        await write(key, entry); // streamed from the archive: the next entry waits for it
        continue;
      }
      const bytes = entry.type === "file" ? await entry.bytes() : undefined;
      const pending = write(key, entry, bytes).finally(() => inFlight.delete(pending));
      inFlight.add(pending);
      if (inFlight.size >= writers) await Promise.race(inFlight);
    }
  } catch (error) {
    failure ??= { error };
  }
  await Promise.all(inFlight);
  if (failure) {
    const { error } = failure;
    if (!(error instanceof TarError)) throw error;
    const after = stored > 0 ? ` after ${stored} successful object(s)` : "";
    throw new StoreError("BadRequest", `tar file error: ${error.message}${after}`, 400);
  }
  return stored;
}

/** A small entry's bytes as the body writeObject reads. */
function oneChunk(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      if (bytes.length) controller.enqueue(bytes);
      controller.close();
    },
  });
}
