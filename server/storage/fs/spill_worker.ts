/**
 * Runs in a Worker (see spill.ts): computes the MD5 of large uploads from the batches the request thread
 * hands over in shared memory, or reads them back from the temp file when it handed them over privately.
 */
import { createHash, type Hash } from "node:crypto";
import type { HashReply, HashRequest } from "./spill.ts";

interface Hashing {
  path: string;
  /** Opened the first time a batch has to be read back. */
  file: Deno.FsFile | null;
  slots: Uint8Array[];
  hashedSlots: Int32Array;
  md5: Hash;
  hashed: number;
}

const open = new Map<number, Hashing>();
/** For reading batches back; as large as one. */
let buffer = new Uint8Array(0);
const port = self as unknown as {
  onmessage: (event: MessageEvent<HashRequest>) => void;
  postMessage(message: HashReply): void;
};

/** Hashes the file's bytes from where hashing stands up to `total`. */
function readBack(hashing: Hashing, total: number): void {
  if (hashing.hashed >= total) return;
  hashing.file ??= Deno.openSync(hashing.path, { read: true });
  hashing.file.seekSync(hashing.hashed, Deno.SeekMode.Start);
  while (hashing.hashed < total) {
    const n = hashing.file.readSync(buffer.subarray(0, Math.min(buffer.length, total - hashing.hashed)));
    if (n === null || n === 0) throw new Error("temp file is shorter than what was written to it");
    hashing.md5.update(buffer.subarray(0, n));
    hashing.hashed += n;
  }
}

function close(id: number): void {
  const hashing = open.get(id);
  open.delete(id);
  hashing?.file?.close();
}

function handle(data: HashRequest): void {
  if (data.op === "open") {
    const { ring, batchBytes } = data;
    if (buffer.length < batchBytes) buffer = new Uint8Array(batchBytes);
    const slots = Array.from(
      { length: data.slots },
      (_, i) => new Uint8Array(ring, i * batchBytes, batchBytes),
    );
    const hashedSlots = new Int32Array(ring, data.slots * batchBytes, 1);
    open.set(data.id, { path: data.path, file: null, slots, hashedSlots, md5: createHash("md5"), hashed: 0 });
    return;
  }
  if (data.op === "drop") return close(data.id);
  const hashing = open.get(data.id);
  if (!hashing) throw new Error("upload is not being hashed");
  switch (data.op) {
    case "slot":
      hashing.md5.update(hashing.slots[data.slot].subarray(0, data.length));
      hashing.hashed += data.length;
      // Only now may the request thread fill this slot again.
      Atomics.add(hashing.hashedSlots, 0, 1);
      break;
    case "file":
      readBack(hashing, data.total);
      break;
    case "digest":
      if (hashing.hashed !== data.total) throw new Error(`hashed ${hashing.hashed} of ${data.total} bytes`);
      close(data.id);
      port.postMessage({ id: data.id, op: "digest", md5Hex: hashing.md5.digest("hex") });
      break;
  }
}

port.onmessage = ({ data }) => {
  try {
    handle(data);
  } catch (error) {
    close(data.id);
    port.postMessage({
      id: data.id,
      op: "failed",
      message: error instanceof Error ? error.message : String(error),
    });
  }
};
