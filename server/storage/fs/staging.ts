/**
 * Staging: a body received and not yet visible, kept in memory while small and spilled to a durable temp
 * file beyond that, with its size and MD5; commitVersion (objects.ts) or a part commit makes it visible.
 */
import { Md5 } from "../../lib/s3/md5.ts";
import { concatBytes } from "../../lib/s3/bytes.ts";
import { type TempFile, writeFileDurable } from "./durable.ts";
import { piecesOf } from "./pieces.ts";
import type { SpillFile } from "./spill.ts";
import type { Store } from "./store.ts";
import { StoreError } from "../core/errors.ts";

/**
 * Objects up to this size are stored inside the key's record file (as MinIO inlines small objects into
 * xl.meta): one durable file write per PUT instead of two.
 */
export const INLINE_LIMIT = 128 * 1024;

/** Bytes received and not yet visible: small ones in memory, larger ones in a durable temp file. */
export interface StagedData {
  temp: TempFile | null;
  inline: Uint8Array | null;
  size: number;
  md5Hex: string;
}

/** Drops staged data that will not be committed. */
export async function discardStaged(staged: StagedData): Promise<void> {
  await staged.temp?.discard();
}

/** Makes staged data durable at `target` (a part file, say). */
export async function commitStagedTo(store: Store, staged: StagedData, target: string): Promise<void> {
  if (staged.temp) await staged.temp.commit(target);
  else await writeFileDurable(store.tmpDir, target, staged.inline ?? new Uint8Array(0));
}

/**
 * Receives a body, computing MD5 and size: kept in memory while it fits the inline limit, spilled to a
 * temp file beyond it; nothing is visible until committed.
 */
export async function stageData(
  store: Store,
  body: ReadableStream<Uint8Array> | null,
  maxSize = Infinity,
): Promise<StagedData> {
  // MD5 is computed here only while the body fits inline; a spilled body is hashed from its start by the spill.
  const md5 = new Md5();
  const buffered: Uint8Array[] = [];
  let size = 0;
  let spill: SpillFile | null = null;
  try {
    if (body) {
      for await (const chunk of piecesOf(body)) {
        size += chunk.length;
        if (size > maxSize) {
          throw new StoreError(
            "EntityTooLarge",
            "Your proposed upload exceeds the maximum allowed object size.",
            400,
          );
        }
        if (!spill && size <= INLINE_LIMIT) {
          md5.update(chunk);
          buffered.push(chunk.slice());
          continue;
        }
        if (!spill) {
          spill = await store.spill.create();
          for (const part of buffered) spill.write(part);
          buffered.length = 0;
        }
        spill.write(chunk);
      }
    }
    if (spill) {
      const { temp, md5Hex } = await spill.finish();
      return { temp, inline: null, size, md5Hex };
    }
  } catch (error) {
    await spill?.discard();
    throw error;
  }
  return { temp: null, inline: concatBytes(buffered), size, md5Hex: md5.digestHex() };
}
