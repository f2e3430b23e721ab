/**
 * What the heal tests share: running a heal to its end over the admin API as the console does, and reaching
 * into the store's files to damage an object the way a failing disk would.
 */
import assert from "node:assert/strict";
import * as s3 from "../../server/lib/s3/mod.ts";
import { keyPathStem } from "../../server/storage/fs/names.ts";
import { eventually } from "../eventually.ts";

export const RECURSIVE = { recursive: true, dryRun: false, remove: false, scanMode: 1 };

/** Starts a heal and polls it to the end (generous deadline for a loaded machine); returns every result. */
export async function heal(
  client: s3.S3Client,
  bucket: string,
  prefix = "",
  opts = RECURSIVE,
): Promise<s3.HealResultItem[]> {
  const { clientToken } = await s3.healStart(client, bucket, prefix, opts);
  const items: s3.HealResultItem[] = [];
  const last = await eventually("the heal to end", async () => {
    const status = await s3.healStatus(client, bucket, prefix, clientToken);
    items.push(...(status.items ?? []));
    return status;
  }, {
    until: (status) => status.summary === "finished" || status.summary === "stopped",
    timeoutMs: 120_000,
  });
  assert.equal(last.summary, "finished", last.detail);
  return items;
}

/** The data file of a key that has exactly one (objects over the inline limit). */
export async function dataFileOf(dataDir: string, bucket: string, key: string): Promise<string> {
  const stem = `${dataDir}/buckets/${bucket}/objects/${keyPathStem(key)}`;
  const dir = stem.slice(0, stem.lastIndexOf("/"));
  const name = stem.slice(stem.lastIndexOf("/") + 1);
  for await (const entry of Deno.readDir(dir)) {
    if (entry.name.startsWith(`${name}.`) && entry.name.endsWith(".data")) return `${dir}/${entry.name}`;
  }
  throw new Error(`no data file for ${key}`);
}

/** Flips the bits of one stored byte, as silent disk corruption would. */
export async function flipByte(path: string, at: number): Promise<void> {
  const file = await Deno.open(path, { read: true, write: true });
  const one = new Uint8Array(1);
  await file.seek(at, Deno.SeekMode.Start);
  await file.read(one);
  await file.seek(at, Deno.SeekMode.Start);
  await file.write(new Uint8Array([one[0] ^ 0x55]));
  file.close();
}
