/**
 * What heal checks of an encrypted version (heal/verify.ts): SSE-S3 and SSE-KMS objects are decrypted with
 * the key store (every package's tag is checked on the way) and their plaintext hashed against the sealed
 * ETag; SSE-C objects cannot be decrypted without the customer's key, so their stored bytes are checked
 * against the SHA-256 recorded when they were written.
 */
import { createHash } from "node:crypto";
import type { Store } from "../fs/store.ts";
import { keyStoreOf } from "./kms.ts";
import { metaKeyOf, openMeta, openObjectKey } from "./seal.ts";
import { storedBytesOf } from "../fs/stored_bytes.ts";
import { decryptorOf } from "./stored.ts";
import type { VersionRecord } from "../core/records.ts";
import type { Decryptor } from "../fs/read.ts";

export type EncryptedCheck =
  /** Hash this plaintext against this ETag. */
  | { kind: "plaintext"; decrypt: Decryptor; etag: string }
  /** Decided without the plaintext. */
  | { kind: "verdict"; state: "ok" | "corrupt" | "missing"; detail: string };

export async function checkEncrypted(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
): Promise<EncryptedCheck> {
  const sse = version.sse!;
  if (sse.type === "SSE-C") return await checkStoredDigest(store, bucket, key, version);
  const keys = keyStoreOf(store);
  if (!keys) {
    return {
      kind: "verdict",
      state: "corrupt",
      detail: `encrypted with ${sse.type}, but no key store is configured to check it`,
    };
  }
  try {
    const objectKey = await openObjectKey(sse, keys, bucket, key);
    const meta = await openMeta(await metaKeyOf(objectKey), sse.sealedMeta);
    return { kind: "plaintext", decrypt: decryptorOf(objectKey), etag: meta.etag };
  } catch (error) {
    return {
      kind: "verdict",
      state: "corrupt",
      detail: `the object key cannot be unsealed: ${error instanceof Error ? error.message : error}`,
    };
  }
}

async function checkStoredDigest(
  store: Store,
  bucket: string,
  key: string,
  version: VersionRecord,
): Promise<EncryptedCheck> {
  const sse = version.sse!;
  let stored;
  try {
    stored = await storedBytesOf(store, bucket, key, version);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      return { kind: "verdict", state: "missing", detail: `data file ${version.dataFile} is missing` };
    }
    return { kind: "verdict", state: "missing", detail: "the stored bytes cannot be read" };
  }
  const hash = createHash("sha256");
  let size = 0;
  try {
    for (let at = 0; at < sse.storedSize; at += 1024 * 1024) {
      const piece = await stored.read(at, Math.min(1024 * 1024, sse.storedSize - at));
      hash.update(piece);
      size += piece.length;
    }
  } catch {
    return {
      kind: "verdict",
      state: "corrupt",
      detail: `holds fewer than the ${sse.storedSize} encrypted bytes written`,
    };
  } finally {
    stored.close();
  }
  if (!sse.storedDigest) {
    return {
      kind: "verdict",
      state: "ok",
      detail: "encrypted with a customer key (SSE-C); size matches, no digest was recorded",
    };
  }
  if (hash.digest("hex") !== sse.storedDigest || size !== sse.storedSize) {
    return {
      kind: "verdict",
      state: "corrupt",
      detail: "the encrypted data does not match its recorded digest",
    };
  }
  return {
    kind: "verdict",
    state: "ok",
    detail:
      "encrypted with a customer key (SSE-C): the encrypted packages match their recorded digest; the plaintext needs the key",
  };
}
