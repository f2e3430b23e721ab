/**
 * Files for upload tests: random bytes written to disk (so the browser reads them as a user's file) and the
 * digest of what the storage holds, to compare the two without keeping either in memory twice.
 */
import { createHash } from "node:crypto";
import { getObject } from "../../server/lib/s3/mod.ts";
import type { TestStack } from "../helpers.ts";

export const MIB = 1024 * 1024;

/** A file of `size` random bytes at `dir/name`, with its size and SHA-256. */
export async function randomFile(
  dir: string,
  name: string,
  size: number,
): Promise<{ path: string; size: number; hash: string }> {
  const data = new Uint8Array(size);
  for (let at = 0; at < size; at += 65536) {
    crypto.getRandomValues(data.subarray(at, Math.min(size, at + 65536)));
  }
  const path = `${dir}/${name}`;
  await Deno.writeFile(path, data);
  return { path, size, hash: createHash("sha256").update(data).digest("hex") };
}

/** The stored object's size and SHA-256, read as it streams. */
export async function storedDigest(
  stack: Pick<TestStack, "admin">,
  bucket: string,
  key: string,
): Promise<{ size: number; hash: string }> {
  const res = await getObject(stack.admin, bucket, key);
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of res.body!) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, hash: hash.digest("hex") };
}
