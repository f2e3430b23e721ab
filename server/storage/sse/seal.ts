/**
 * Per-object keys: every encrypted object (or multipart upload) gets a random 256-bit object key, kept only
 * sealed — by the key store's named key (SSE-S3, SSE-KMS) or by a key derived from the customer's key and a
 * random IV (SSE-C) — and bound to the object's bucket and name. The ETag and checksum are kept sealed too,
 * under a key derived from the object key (MinIO encrypts the same metadata).
 */
import { type KeyStore, kmsNotConfigured } from "./kms.ts";
import type { SseKeyRecord, StoredChecksum } from "../core/records.ts";

export interface SealedMeta {
  /** The real ETag (MD5 of the plaintext, or the multipart one). */
  etag: string;
  checksum?: StoredChecksum;
}

/** How a request asks to encrypt or to read (customer key parsed and checked against its MD5). */
export type SseParams =
  | { type: "SSE-S3" | "SSE-KMS"; keyId: string; context?: string }
  | { type: "SSE-C"; customerKey: Uint8Array; keyMd5: string };

const enc = new TextEncoder();
const objectPath = (bucket: string, key: string) => `${bucket}/${key}`;

/** The KMS context sealing binds an object key to (MinIO uses the object's path; the client's is added). */
function kmsContext(
  record: Pick<SseKeyRecord, "context">,
  bucket: string,
  key: string,
): Record<string, string> {
  const context: Record<string, string> = record.context
    ? JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(record.context)))
    : {};
  return { ...context, "x-deck-object": objectPath(bucket, key) };
}

async function hmac(key: Uint8Array, ...parts: (Uint8Array | string)[]): Promise<Uint8Array<ArrayBuffer>> {
  const k = await crypto.subtle.importKey(
    "raw",
    key as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const data = parts.map((p) => (typeof p === "string" ? enc.encode(p) : p));
  const all = new Uint8Array(data.reduce((n, d) => n + d.length, 0));
  let at = 0;
  for (const d of data) {
    all.set(d, at);
    at += d.length;
  }
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, all));
}

async function aesKey(raw: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  return await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

async function customerKek(
  customerKey: Uint8Array,
  iv: Uint8Array,
  bucket: string,
  key: string,
): Promise<CryptoKey> {
  return await aesKey(await hmac(customerKey, iv, "deck-sse-c/v1/", objectPath(bucket, key)));
}

/** A fresh object key and how to find it again. */
export async function newObjectKey(
  params: SseParams,
  keys: KeyStore | null,
  bucket: string,
  key: string,
): Promise<{ objectKey: Uint8Array; record: SseKeyRecord }> {
  const objectKey = crypto.getRandomValues(new Uint8Array(32));
  if (params.type === "SSE-C") {
    const iv = crypto.getRandomValues(new Uint8Array(32));
    const kek = await customerKek(params.customerKey, iv, bucket, key);
    // The key-encryption key is unique per IV: a fixed nonce is safe.
    const sealed = await crypto.subtle.encrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, kek, objectKey);
    return {
      objectKey,
      record: { type: "SSE-C", iv: iv.toBase64(), sealedKey: new Uint8Array(sealed).toBase64() },
    };
  }
  if (!keys) throw kmsNotConfigured();
  const record: SseKeyRecord = {
    type: params.type,
    keyId: params.keyId,
    sealedKey: "",
    ...(params.context ? { context: params.context } : {}),
  };
  record.sealedKey = (await keys.seal(params.keyId, objectKey, kmsContext(record, bucket, key))).toBase64();
  return { objectKey, record };
}

/** Thrown when a customer key does not open the object key (S3 answers AccessDenied). */
export class WrongKeyError extends Error {}

/** The object key of an encrypted version or upload; SSE-C needs the customer's key. */
export async function openObjectKey(
  record: SseKeyRecord,
  keys: KeyStore | null,
  bucket: string,
  key: string,
  customerKey?: Uint8Array,
): Promise<Uint8Array> {
  const sealed = Uint8Array.fromBase64(record.sealedKey);
  if (record.type === "SSE-C") {
    if (!customerKey) throw new WrongKeyError("no customer key");
    const kek = await customerKek(customerKey, Uint8Array.fromBase64(record.iv!), bucket, key);
    try {
      return new Uint8Array(
        await crypto.subtle.decrypt({ name: "AES-GCM", iv: new Uint8Array(12) }, kek, sealed),
      );
    } catch {
      throw new WrongKeyError("the customer key does not open the object key");
    }
  }
  if (!keys) throw kmsNotConfigured();
  return await keys.unseal(record.keyId!, sealed, kmsContext(record, bucket, key));
}

/** The key metadata is sealed under: derived from the object key, kept for a multipart upload's duration. */
export async function metaKeyOf(objectKey: Uint8Array): Promise<Uint8Array> {
  return await hmac(objectKey, "deck-sse-meta/v1");
}

export async function sealMeta(metaKey: Uint8Array, meta: SealedMeta): Promise<string> {
  const nonce = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv: nonce },
      await aesKey(metaKey as Uint8Array<ArrayBuffer>),
      enc.encode(JSON.stringify(meta)),
    ),
  );
  const out = new Uint8Array(12 + sealed.length);
  out.set(nonce);
  out.set(sealed, 12);
  return out.toBase64();
}

export async function openMeta(metaKey: Uint8Array, sealedMeta: string): Promise<SealedMeta> {
  const bytes = Uint8Array.fromBase64(sealedMeta);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.subarray(0, 12) },
    await aesKey(metaKey as Uint8Array<ArrayBuffer>),
    bytes.subarray(12),
  );
  return JSON.parse(new TextDecoder().decode(plain));
}
