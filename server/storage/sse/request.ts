/**
 * SSE as requests ask for it (minio-protocol-2 §7): the headers of writes, reads and copy sources, the
 * bucket's default encryption, MinIO's errors, and the headers responses report.
 */
import { Md5 } from "../../lib/s3/md5.ts";
import { child, childText, parseXml } from "../../lib/s3/xml.ts";
import type { Store } from "../fs/store.ts";
import { keyStoreOf, kmsInvalidKeyId, kmsKeyNotFound, kmsNotConfigured } from "./kms.ts";
import {
  metaKeyOf,
  newObjectKey,
  openMeta,
  openObjectKey,
  type SealedMeta,
  type SseParams,
  WrongKeyError,
} from "./seal.ts";
import { decryptorOf, type SseWrite } from "./stored.ts";
import type { Decryptor } from "../fs/read.ts";
import { accessDenied, invalidArgument, StoreError } from "../core/errors.ts";
import type { SseKeyRecord, UploadSse, VersionRecord } from "../core/records.ts";

/** What SSE reads of a request: its headers, transport and target (the S3 front's request has all of it). */
export interface SseRequest {
  request: Request;
  url: URL;
  /** The client's address: SSE-C keys are taken over plain HTTP only from loopback. */
  sourceIp?: string;
  store: Store;
  bucket: string;
  key: string;
}

const SSE = "x-amz-server-side-encryption";
const KMS_KEY = "x-amz-server-side-encryption-aws-kms-key-id";
const KMS_CONTEXT = "x-amz-server-side-encryption-context";
export const CUSTOMER = "x-amz-server-side-encryption-customer-";
export const COPY_CUSTOMER = "x-amz-copy-source-server-side-encryption-customer-";

const invalidRequest = (message: string) => new StoreError("InvalidRequest", message, 400);
export const notApplicable = () =>
  invalidRequest("The encryption parameters are not applicable to this object.");
const storedEncrypted = () =>
  invalidRequest(
    "The object was stored using a form of Server Side Encryption. The correct parameters must be provided to retrieve the object.",
  );
export const partNeedsKey = () =>
  invalidRequest(
    "The multipart upload initiate requested encryption. Subsequent part requests must include the appropriate encryption parameters.",
  );

/**
 * SSE-C keys must not cross a network in the clear: MinIO refuses them without TLS. With a certificate
 * (its certs dir) the embedded storage takes them from any client; on plain HTTP only from its own machine
 * (loopback), where nothing is sent over a network.
 */
function requireSafeTransport(ctx: SseRequest): void {
  const ip = ctx.sourceIp ?? "";
  const loopback = ip === "::1" || ip.startsWith("127.") || ip.startsWith("::ffff:127.");
  if (ctx.url.protocol !== "https:" && !loopback) {
    throw invalidRequest(
      "Requests specifying Server Side Encryption with Customer provided keys must be made over a secure connection.",
    );
  }
}

/** The customer key headers (with `prefix`), checked as MinIO checks them; null when none is sent. */
export function customerKeyOf(
  headers: Headers,
  prefix = CUSTOMER,
): { customerKey: Uint8Array; keyMd5: string } | null {
  const algorithm = headers.get(`${prefix}algorithm`);
  const key = headers.get(`${prefix}key`);
  const md5 = headers.get(`${prefix}key-md5`);
  if (algorithm === null && key === null && md5 === null) return null;
  if (algorithm !== "AES256") {
    throw invalidArgument(
      "Requests specifying Server Side Encryption with Customer provided keys must provide a valid encryption algorithm.",
    );
  }
  if (!key) {
    throw invalidArgument(
      "Requests specifying Server Side Encryption with Customer provided keys must provide an appropriate secret key.",
    );
  }
  if (!md5) {
    throw invalidArgument(
      "Requests specifying Server Side Encryption with Customer provided keys must provide the client calculated MD5 of the secret key.",
    );
  }
  let customerKey: Uint8Array;
  try {
    customerKey = Uint8Array.fromBase64(key);
  } catch {
    throw accessDenied();
  }
  if (customerKey.length !== 32) throw accessDenied();
  if (new Md5().update(customerKey).digest().toBase64() !== md5) {
    throw invalidArgument("The calculated MD5 hash of the key did not match the hash that was provided.");
  }
  return { customerKey, keyMd5: md5 };
}

/** A KMS key id as sent: `arn:aws:kms:` stripped; spaces and odd characters refused. */
function keyIdOf(text: string): string {
  const id = text.startsWith("arn:aws:kms:") ? text.slice("arn:aws:kms:".length) : text;
  if (id !== id.trim() || !/^[A-Za-z0-9_.:/-]*$/.test(id)) {
    throw invalidRequest("The specified KMS KeyID contains unsupported characters");
  }
  return id;
}

/** SSE-S3 / SSE-KMS as a write's headers ask (key id unresolved: "" is the default key). */
function managedParamsOf(
  headers: Headers,
): { type: "SSE-S3" | "SSE-KMS"; keyId: string; context?: string } | null {
  const method = headers.get(SSE);
  const keyHeader = headers.get(KMS_KEY);
  const context = headers.get(KMS_CONTEXT) ?? undefined;
  if (method === null) {
    if (keyHeader !== null || context !== undefined) {
      throw invalidArgument(
        "Server Side Encryption with AWS KMS managed key requires HTTP header x-amz-server-side-encryption : aws:kms",
      );
    }
    return null;
  }
  if (method === "AES256") {
    if (keyHeader !== null || context !== undefined) {
      throw invalidArgument(
        "Server Side Encryption with AWS KMS managed key requires HTTP header x-amz-server-side-encryption : aws:kms",
      );
    }
    return { type: "SSE-S3", keyId: "" };
  }
  if (method !== "aws:kms") throw invalidArgument("The encryption method specified is not supported");
  if (context !== undefined) {
    try {
      const parsed = JSON.parse(new TextDecoder().decode(Uint8Array.fromBase64(context)));
      if (
        !parsed || typeof parsed !== "object" || Array.isArray(parsed) ||
        Object.values(parsed).some((v) => typeof v !== "string")
      ) throw new Error();
    } catch {
      throw invalidArgument("The encryption context must be base64 of a JSON object of strings");
    }
  }
  return { type: "SSE-KMS", keyId: keyIdOf(keyHeader ?? ""), context };
}

/** The bucket's default encryption (PutBucketEncryption), as write parameters. */
async function bucketDefault(
  ctx: SseRequest,
  bucket: string,
): Promise<{ type: "SSE-S3" | "SSE-KMS"; keyId: string } | null> {
  const xml = await ctx.store.getDocument(bucket, "encryption.xml");
  if (!xml) return null;
  const apply = child(child(parseXml(xml), "Rule"), "ApplyServerSideEncryptionByDefault");
  const algorithm = childText(apply, "SSEAlgorithm");
  return algorithm === "aws:kms"
    ? { type: "SSE-KMS", keyId: (childText(apply, "KMSMasterKeyID") ?? "").replace(/^arn:aws:kms:/, "") }
    : { type: "SSE-S3", keyId: "" };
}

/** Resolves the key name against the key store: MinIO's errors without one or for an unknown name. */
export function resolveKeyId(ctx: SseRequest, keyId: string): string {
  const keys = keyStoreOf(ctx.store);
  if (!keys) throw kmsNotConfigured();
  const name = keyId || keys.defaultKey;
  if (!keys.has(name)) throw kmsKeyNotFound();
  return name;
}

/** What a write (PUT, POST, CreateMultipartUpload, Copy destination) encrypts with, or null for nothing. */
export async function sseForWrite(
  ctx: SseRequest,
  headers: Headers,
  bucket = ctx.bucket,
  key = ctx.key,
): Promise<{ write: SseWrite; headers: Record<string, string> } | null> {
  const customer = customerKeyOf(headers);
  const managed = managedParamsOf(headers);
  if (customer && managed) {
    throw invalidArgument(
      "Server Side Encryption with Customer provided key is incompatible with the encryption method specified",
    );
  }
  let params: SseParams | null = customer ? { type: "SSE-C", ...customer } : managed;
  if (customer) requireSafeTransport(ctx);
  params ??= await bucketDefault(ctx, bucket);
  if (!params) return null;
  if (params.type !== "SSE-C") params = { ...params, keyId: resolveKeyId(ctx, params.keyId) };
  const { objectKey, record } = await newObjectKey(params, keyStoreOf(ctx.store), bucket, key);
  const plainEtag = params.type === "SSE-S3" || headers.has("content-md5");
  const write: SseWrite = { key: record, objectKey, metaKey: await metaKeyOf(objectKey), plainEtag };
  return { write, headers: sseResponseHeaders(record, customer?.keyMd5) };
}

/** The headers reporting an object's encryption (minio-protocol-2 §7.2). */
export function sseResponseHeaders(
  record: SseKeyRecord | undefined,
  keyMd5?: string,
): Record<string, string> {
  if (!record) return {};
  if (record.type === "SSE-C") {
    return { [`${CUSTOMER}algorithm`]: "AES256", ...(keyMd5 ? { [`${CUSTOMER}key-MD5`]: keyMd5 } : {}) };
  }
  if (record.type === "SSE-S3") return { [SSE]: "AES256" };
  return {
    [SSE]: "aws:kms",
    [KMS_KEY]: `arn:aws:kms:${record.keyId}`,
    ...(record.context ? { [KMS_CONTEXT]: record.context } : {}),
  };
}

export interface SseRead {
  /** What readVersion decrypts the version with. */
  decrypt?: Decryptor;
  /** The sealed ETag and checksum, opened. */
  meta?: SealedMeta;
  headers: Record<string, string>;
}

/**
 * The key to read a version with, from the request's customer headers (`prefix`: the copy-source ones for a
 * copy) or the key store; MinIO's errors for missing, wrong or inapplicable parameters.
 */
export async function sseForRead(
  ctx: SseRequest,
  version: VersionRecord,
  options: { copySource?: boolean; bucket?: string; key?: string } = {},
): Promise<SseRead> {
  const headers = ctx.request.headers;
  if (!options.copySource && headers.has(SSE)) throw notApplicable();
  const customer = customerKeyOf(headers, options.copySource ? COPY_CUSTOMER : CUSTOMER);
  const sse = version.sse;
  if (!sse) {
    if (customer && !options.copySource) throw notApplicable();
    return { headers: {} };
  }
  if ((sse.type === "SSE-C") !== !!customer) throw storedEncrypted();
  if (customer) requireSafeTransport(ctx);
  const objectKey = await openKey(ctx, sse, customer?.customerKey, options.bucket, options.key);
  const meta = await openMeta(await metaKeyOf(objectKey), sse.sealedMeta);
  return { decrypt: decryptorOf(objectKey), meta, headers: sseResponseHeaders(sse, customer?.keyMd5) };
}

async function openKey(
  ctx: SseRequest,
  record: SseKeyRecord,
  customerKey?: Uint8Array,
  bucket = ctx.bucket,
  key = ctx.key,
): Promise<Uint8Array> {
  try {
    return await openObjectKey(record, keyStoreOf(ctx.store), bucket, key, customerKey);
  } catch (error) {
    if (error instanceof WrongKeyError) throw accessDenied();
    throw error;
  }
}

export const uploadSseOf = (write: SseWrite): UploadSse => ({
  key: write.key,
  ...(write.key.type === "SSE-C" ? { metaKey: write.metaKey.toBase64() } : {}),
  plainEtag: write.plainEtag,
});

/** The object key a part is encrypted with (SSE-C parts must carry the upload's customer key). */
export async function sseForPart(
  ctx: SseRequest,
  upload: UploadSse | undefined,
): Promise<{ objectKey?: Uint8Array; headers: Record<string, string> }> {
  const customer = customerKeyOf(ctx.request.headers);
  if (!upload) {
    if (customer) throw notApplicable();
    return { headers: {} };
  }
  if (upload.key.type === "SSE-C" && !customer) throw partNeedsKey();
  if (upload.key.type !== "SSE-C" && customer) throw notApplicable();
  if (customer) requireSafeTransport(ctx);
  return {
    objectKey: await openKey(ctx, upload.key, customer?.customerKey),
    headers: sseResponseHeaders(upload.key, customer?.keyMd5),
  };
}

/** The object key used at completion: SSE-S3/KMS through the key store; SSE-C's is not at hand (no key sent). */
export async function sseForCompletion(
  ctx: SseRequest,
  upload: UploadSse,
): Promise<{ write: SseWrite; objectKey?: Uint8Array }> {
  const objectKey = upload.key.type === "SSE-C" ? undefined : await openKey(ctx, upload.key);
  const metaKey = objectKey ? await metaKeyOf(objectKey) : Uint8Array.fromBase64(upload.metaKey ?? "");
  return { write: { key: upload.key, metaKey, plainEtag: upload.plainEtag }, objectKey };
}

/** PutBucketEncryption's check (MinIO): a key store must exist, and a named key must be in it. */
export function checkBucketEncryption(ctx: SseRequest, keyId: string | undefined): void {
  const keys = keyStoreOf(ctx.store);
  if (!keys) throw kmsNotConfigured();
  if (keyId && !keys.has(keyId.replace(/^arn:aws:kms:/, ""))) throw kmsInvalidKeyId();
}
