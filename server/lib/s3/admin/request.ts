/**
 * How every admin API v3 call is made (minio-protocol §3.1): path /minio/admin/v3/<op>, signed with the EMPTY
 * region as madmin does, real body hash, optional madmin-encrypted bodies keyed by the signer's secret.
 */
import type { QueryInput, S3Client } from "../client.ts";
import { decryptPayload, encryptPayload } from "../payload_crypto.ts";

export interface AdminCall {
  method: string;
  op: string;
  query?: QueryInput;
  /** JSON value, raw text or bytes. */
  body?: unknown;
  /** Encrypt the body with the signer's secret key. */
  encrypt?: boolean;
  signal?: AbortSignal;
  allow?: number[];
  headers?: Record<string, string>;
}

function bodyBytes(body: unknown): Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (body instanceof Uint8Array) return body;
  return new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body));
}

/** Sends an admin call and returns the raw response. */
export async function adminSend(client: S3Client, call: AdminCall): Promise<Response> {
  let body = bodyBytes(call.body);
  if (body && call.encrypt) body = await encryptPayload(client.credentials.secretKey, body);
  return await client.send({
    method: call.method,
    path: `/minio/admin/v3/${call.op}`,
    query: call.query,
    body,
    region: "",
    headers: call.headers,
    signal: call.signal,
    allow: call.allow,
  });
}

/** Admin call returning parsed JSON (decrypting first when `decrypt`). */
export async function adminJson<T>(client: S3Client, call: AdminCall & { decrypt?: boolean }): Promise<T> {
  const res = await adminSend(client, call);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const plain = call.decrypt ? await decryptPayload(client.credentials.secretKey, bytes) : bytes;
  return JSON.parse(new TextDecoder().decode(plain)) as T;
}

/** Admin call returning text (decrypting first when `decrypt`). */
export async function adminText(client: S3Client, call: AdminCall & { decrypt?: boolean }): Promise<string> {
  const res = await adminSend(client, call);
  const bytes = new Uint8Array(await res.arrayBuffer());
  return new TextDecoder().decode(
    call.decrypt ? await decryptPayload(client.credentials.secretKey, bytes) : bytes,
  );
}

/** Admin call whose answer body is ignored. */
export async function adminDo(client: S3Client, call: AdminCall): Promise<Response> {
  const res = await adminSend(client, call);
  await res.body?.cancel();
  return res;
}
