/**
 * Heal's check of one version (verify.ts walks the versions): its bytes must exist, have the recorded size
 * and hash to the recorded ETag (MD5, or for multipart uploads the MD5 of the parts' MD5s over the recorded
 * part sizes), read as a client would read them (decompressed; decrypted with the key store, or for SSE-C
 * checked against the digest recorded at write). A transitioned version has no local data to check.
 */
import { Md5 } from "../../lib/s3/md5.ts";
import type { VersionRecord } from "../core/records.ts";
import { type Decryptor, readVersion } from "../fs/read.ts";
import type { Store } from "../fs/store.ts";
import { checkEncrypted } from "../sse/heal.ts";

/** madmin drive states used here (minio-protocol §3.13). */
export type DriveState = "ok" | "missing" | "corrupt" | "unknown";

/** Checks one version's bytes against its record. */
export async function verifyVersion(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
): Promise<{ state: DriveState; detail: string }> {
  if (version.deleteMarker) return { state: "ok", detail: "" };
  // Lifecycle: a transitioned version's bytes are on its tier; no local data is what it should have.
  if (version.transition) return { state: "ok", detail: `data on tier ${version.transition.tier}` };
  // Encrypted and compressed bytes are checked as clients read them (SSE: server/storage/sse/heal.ts).
  if (version.sse || version.compression) return await verifyDecoded(store, bucket, key, version);
  if (version.inline) {
    let data: Uint8Array;
    try {
      data = await store.readInline(bucket, key, version.versionId);
    } catch {
      return { state: "missing", detail: "the records log holds no bytes for this version" };
    }
    const checker = etagChecker(version);
    checker.update(data);
    return judge(data.length, version, checker);
  }
  if (!version.dataFile) return { state: "corrupt", detail: "the record names no data" };
  const path = store.dataPath(bucket, key, version.dataFile);
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { state: "missing", detail: `data file ${version.dataFile} is missing` };
    }
    return {
      state: "corrupt",
      detail: `data file ${version.dataFile} cannot be read: ${
        error instanceof Error ? error.message : error
      }`,
    };
  }
  const checker = etagChecker(version);
  let size = 0;
  try {
    for await (const chunk of file.readable) {
      size += chunk.length;
      checker.update(chunk);
    }
  } catch (error) {
    return {
      state: "corrupt",
      detail: `reading data file ${version.dataFile} failed: ${
        error instanceof Error ? error.message : error
      }`,
    };
  }
  return judge(size, version, checker);
}

/** Hashes what a client would read (decrypted, decompressed) against the ETag. */
async function verifyDecoded(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
): Promise<{ state: DriveState; detail: string }> {
  let decrypt: Decryptor | undefined;
  let etag = version.etag;
  if (version.sse) {
    const check = await checkEncrypted(store, bucket, key, version);
    if (check.kind === "verdict") return { state: check.state, detail: check.detail };
    ({ decrypt, etag } = check);
  }
  const checker = etagChecker({ ...version, etag });
  let size = 0;
  try {
    for await (const chunk of await readVersion(store, bucket, key, version, 0, version.size, decrypt)) {
      size += chunk.length;
      checker.update(chunk);
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { state: "missing", detail: `data file ${version.dataFile} is missing` };
    }
    return {
      state: "corrupt",
      detail: `reading the ${version.sse ? "encrypted" : "compressed"} data failed: ${
        error instanceof Error ? error.message : error
      }`,
    };
  }
  return judge(size, version, checker);
}

function judge(
  size: number,
  version: VersionRecord,
  checker: EtagChecker,
): { state: DriveState; detail: string } {
  if (size !== version.size) {
    return { state: "corrupt", detail: `holds ${size} bytes, ${version.size} were written` };
  }
  const verdict = checker.verdict();
  if (verdict === "mismatch") {
    return { state: "corrupt", detail: "the data does not match its recorded checksum" };
  }
  if (verdict === "unverifiable") {
    return {
      state: "ok",
      detail:
        "size matches; the checksum cannot be checked (multipart upload recorded without its part sizes)",
    };
  }
  return { state: "ok", detail: "" };
}

interface EtagChecker {
  update(chunk: Uint8Array): void;
  verdict(): "match" | "mismatch" | "unverifiable";
}

/** Recomputes a plain ETag (MD5 of the bytes) or a multipart one (MD5 of each part's MD5, then `-N`). */
function etagChecker(version: VersionRecord): EtagChecker {
  const multipart = /^([0-9a-f]{32})-(\d+)$/.exec(version.etag);
  if (!multipart) {
    const md5 = new Md5();
    return {
      update: (chunk) => void md5.update(chunk),
      verdict: () => (md5.digestHex() === version.etag ? "match" : "mismatch"),
    };
  }
  const sizes = version.partSizes;
  if (!sizes || sizes.length !== Number(multipart[2])) {
    return {
      update: () => {},
      verdict: () => "unverifiable",
    };
  }
  const partHashes = new Md5();
  let part = 0;
  let left = sizes[0];
  let current = new Md5();
  const closePart = () => {
    partHashes.update(current.digest());
    part++;
    left = sizes[part] ?? 0;
    current = new Md5();
  };
  return {
    update(chunk) {
      let at = 0;
      while (at < chunk.length) {
        if (part >= sizes.length) return; // more bytes than recorded: the size check reports it
        const take = Math.min(left, chunk.length - at);
        current.update(chunk.subarray(at, at + take));
        at += take;
        left -= take;
        if (left === 0) closePart();
      }
    },
    verdict: () => {
      while (part < sizes.length && left === 0) closePart();
      if (part < sizes.length) return "mismatch";
      return `${partHashes.digestHex()}-${sizes.length}` === version.etag ? "match" : "mismatch";
    },
  };
}
