/**
 * The disk side of encryption, called by the write path (write/): staged bytes are encrypted before they are
 * committed and encrypted parts joined as stored; and what reads give fs/objects.ts readVersion to turn an
 * encrypted version's stored bytes back into plaintext.
 */
import { createHash, type Hash } from "node:crypto";
import { TempFile } from "../fs/durable.ts";
import type { PartJoin } from "../fs/upload_join.ts";
import type { StagedData } from "../fs/staging.ts";
import { fileBytes } from "../fs/stored_bytes.ts";
import type { Store } from "../fs/store.ts";
import { decryptedRange, encryptBytes, encryptFile } from "./packages.ts";
import { openObjectKey, type SealedMeta, sealMeta } from "./seal.ts";
import { keyStoreOf } from "./kms.ts";
import type { SseKeyRecord, SseRecord, VersionRecord } from "../core/records.ts";
import type { Decryptor } from "../fs/read.ts";

/** How a write is to be encrypted (sse/request.ts sseForWrite decides it). */
export interface SseWrite {
  key: SseKeyRecord;
  /** Absent for a completed SSE-C multipart upload: its parts are encrypted already. */
  objectKey?: Uint8Array;
  metaKey: Uint8Array;
  /** The staged bytes are the stored form already (a completed multipart upload) and this long. */
  stored?: { size: number; digest?: string };
  /** The plaintext MD5 stays the visible ETag (SSE-S3, or a Content-MD5 was sent); else it is random. */
  plainEtag: boolean;
}

/** Encrypts staged plaintext (the object key's stream), keeping its plaintext size and MD5. */
export async function encryptStaged(
  tmpDir: string,
  staged: StagedData,
  objectKey: Uint8Array,
  digest = false,
): Promise<{ staged: StagedData; storedSize: number; storedDigest?: string }> {
  const hash = digest ? createHash("sha256") : null;
  if (!staged.temp) {
    const inline = await encryptBytes(objectKey, staged.inline ?? new Uint8Array(0));
    hash?.update(inline);
    return { staged: { ...staged, inline }, storedSize: inline.length, storedDigest: hash?.digest("hex") };
  }
  const source = staged.temp;
  await source.finish();
  const temp = await TempFile.create(tmpDir);
  try {
    const storedSize = await encryptFile(
      objectKey,
      source.path,
      staged.size,
      temp,
      hash ? (piece) => hash.update(piece) : undefined,
    );
    return { staged: { ...staged, temp }, storedSize, storedDigest: hash?.digest("hex") };
  } catch (error) {
    await temp.discard();
    throw error;
  } finally {
    await source.discard();
  }
}

/** The write path's last step before a commit: the staged bytes in stored form, the version's record and the ETag it shows. */
export async function encryptForCommit(
  tmpDir: string,
  staged: StagedData,
  write: SseWrite,
  meta: SealedMeta,
): Promise<{ staged: StagedData; sse: SseRecord; etag: string }> {
  let stored = write.stored;
  if (!stored) {
    const encrypted = await encryptStaged(tmpDir, staged, write.objectKey!, write.key.type === "SSE-C");
    staged = encrypted.staged;
    stored = { size: encrypted.storedSize, digest: encrypted.storedDigest };
  }
  const sse: SseRecord = {
    ...write.key,
    sealedMeta: await sealMeta(write.metaKey, meta),
    storedSize: stored.size,
    ...(stored.digest ? { storedDigest: stored.digest } : {}),
  };
  // MinIO shows a random ETag for SSE-KMS and SSE-C single-part objects (minio-protocol-2 §7.2).
  const etag = write.plainEtag || meta.etag.includes("-")
    ? meta.etag
    : crypto.getRandomValues(new Uint8Array(16)).toHex();
  return { staged, sse, etag };
}

/** What readVersion decrypts an encrypted version with, given its object key. */
export function decryptorOf(objectKey: Uint8Array): Decryptor {
  return (stored, segments, start, length) => decryptedRange(stored, segments, objectKey, start, length);
}

/** Completion joins encrypted parts as stored (digest for SSE-C), plaintext for full-object checksums. */
export class EncryptedJoin implements PartJoin {
  readonly #digest: Hash | null;
  constructor(private readonly write: SseWrite, private readonly objectKey?: Uint8Array) {
    this.#digest = write.key.type === "SSE-C" ? createHash("sha256") : null;
  }

  observe(stored: Uint8Array): void {
    this.#digest?.update(stored);
  }

  async *plaintext(path: string, size: number): AsyncGenerator<Uint8Array> {
    if (!this.objectKey) throw new Error("a full-object checksum of an SSE-C upload needs the customer key");
    yield* decryptedRange(await fileBytes(path), [size], this.objectKey, 0, size);
  }

  finish(storedSize: number): SseWrite {
    return { ...this.write, stored: { size: storedSize, digest: this.#digest?.digest("hex") } };
  }
}

/**
 * What the server can decrypt on its own (SSE-S3, SSE-KMS) for internal readers (heal, replication): pass it
 * to readVersion. Undefined for unencrypted versions; SSE-C versions throw, since only the customer's key
 * opens them.
 */
export async function serverDecryptor(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
): Promise<Decryptor | undefined> {
  if (!version.sse) return undefined;
  if (version.sse.type === "SSE-C") {
    throw new Error("an SSE-C object can only be read with the customer's key");
  }
  return decryptorOf(await openObjectKey(version.sse, keyStoreOf(store), bucket, key));
}
