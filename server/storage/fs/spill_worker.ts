/**
 * Runs in a Worker (see spill.ts): computes the MD5 of large uploads by reading back what the request thread
 * has written to the temp file (from the page cache), so a big PUT uses a second core.
 */
import { createHash, type Hash } from "node:crypto";
import type { HashReply, HashRequest } from "./spill.ts";

interface Hashing {
  file: Deno.FsFile;
  md5: Hash;
  hashed: number;
}

const open = new Map<number, Hashing>();
const buffer = new Uint8Array(1024 * 1024);
const port = self as unknown as {
  onmessage: (event: MessageEvent<HashRequest>) => void;
  postMessage(message: HashReply): void;
};

/** Hashes the file's bytes up to `total`. */
function catchUp(hashing: Hashing, total: number): void {
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
  hashing?.file.close();
}

port.onmessage = ({ data }) => {
  try {
    switch (data.op) {
      case "open":
        open.set(data.id, { file: Deno.openSync(data.path, { read: true }), md5: createHash("md5"), hashed: 0 });
        break;
      case "written": {
        const hashing = open.get(data.id);
        if (hashing) catchUp(hashing, data.total);
        break;
      }
      case "digest": {
        const hashing = open.get(data.id);
        if (!hashing) throw new Error("upload is not being hashed");
        catchUp(hashing, data.total);
        close(data.id);
        port.postMessage({ id: data.id, op: "digest", md5Hex: hashing.md5.digest("hex") });
        break;
      }
      case "drop":
        close(data.id);
        break;
    }
  } catch (error) {
    close(data.id);
    port.postMessage({ id: data.id, op: "failed", message: error instanceof Error ? error.message : String(error) });
  }
};
