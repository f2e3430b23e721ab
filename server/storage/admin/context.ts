/** Shared pieces of the embedded admin API v3: the handler context, JSON/encrypted replies and admin errors. */
import type { LdapSettings } from "../../lib/ldap/settings.ts";
import { decryptPayload, encryptPayload } from "../../lib/s3/payload_crypto.ts";
import type { Credential, StoreFacts, VerifiedRequest } from "../core/contracts.ts";
import type { Authority } from "../iam/authority.ts";
import type { IamStore } from "../iam/store.ts";
import type { ServerConfig } from "../config/server_config.ts";
import type { HealSequences } from "../heal/sequences.ts";
import type { LogHistory } from "../streams/console_log.ts";
import type { StorageStreams } from "../streams/mod.ts";
import { StoreError } from "../core/errors.ts";
import type { TierStore } from "../tiers/store.ts";

/** What the live admin tools (trace, console log, heal, health info) work from. */
export interface LiveServices {
  streams: StorageStreams;
  logHistory: LogHistory;
  heal: HealSequences;
}

export interface AdminContext extends VerifiedRequest {
  credential: Credential;
  query: URLSearchParams;
  iam: IamStore;
  authority: Authority;
  store: StoreFacts;
  config: ServerConfig;
  tiers: TierStore;
  startedAt: number;
  /** What the server says it is (see EmbeddedStorageOptions.reportedBackend). */
  reportedBackend: "erasure" | "fs";
  now: () => number;
  /** Whether the caller may perform an admin action (root always; others by policy). */
  can: (action: string, bucket?: string) => boolean;
  /** Reloads configuration as a restart would. */
  restart: () => Promise<void>;
  /** ServerInfo `services.notifications`, from each target's real connection check. */
  notificationStatus: () => Promise<Record<string, Record<string, { status: string }>[]>[]>;
  fetch: typeof fetch;
  live: LiveServices;
  /** The configured directory (identity_ldap), with the certificates the storage trusts; null without one. */
  ldap: () => LdapSettings | null;
}

export type AdminRoute = (ctx: AdminContext) => Promise<Response>;

export const adminFail = (code: string, message: string, status: number) =>
  new StoreError(code, message, status);

export function requireAction(ctx: AdminContext, action: string): void {
  if (!ctx.can(action)) throw adminFail("AccessDenied", "Access Denied.", 403);
}

export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(value), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** Replies with JSON encrypted for the signer (PBKDF2 + AES-GCM, id 0x02; see payload_crypto.ts). */
export async function encryptedJson(ctx: AdminContext, value: unknown): Promise<Response> {
  const sealed = await encryptPayload(
    ctx.credential.secretKey,
    new TextEncoder().encode(JSON.stringify(value)),
  );
  return new Response(sealed, { headers: { "content-type": "application/json" } });
}

export async function encryptedText(ctx: AdminContext, text: string): Promise<Response> {
  const sealed = await encryptPayload(ctx.credential.secretKey, new TextEncoder().encode(text));
  return new Response(sealed, { headers: { "content-type": "application/octet-stream" } });
}

/** Decrypts the request body with the signer's secret; XMinioAdminConfigBadJSON when it cannot. */
export async function decryptBody(ctx: AdminContext): Promise<string> {
  try {
    return new TextDecoder().decode(await decryptPayload(ctx.credential.secretKey, ctx.body));
  } catch {
    throw adminFail(
      "XMinioAdminConfigBadJSON",
      "Unable to decrypt the request body: it must be encrypted with the signer's secret key",
      400,
    );
  }
}

export async function decryptJson<T>(ctx: AdminContext): Promise<T> {
  const text = await decryptBody(ctx);
  try {
    return JSON.parse(text) as T;
  } catch {
    throw adminFail("XMinioAdminConfigBadJSON", "The request body is not valid JSON", 400);
  }
}

export function plainJson<T>(ctx: AdminContext): T {
  try {
    return JSON.parse(new TextDecoder().decode(ctx.body)) as T;
  } catch {
    throw adminFail("XMinioAdminInvalidArgument", "The request body is not valid JSON", 400);
  }
}

export function requiredParam(ctx: AdminContext, name: string): string {
  const value = ctx.query.get(name);
  if (value === null || value === "") {
    throw adminFail("XMinioAdminInvalidArgument", `Invalid arguments specified: ${name} is required`, 400);
  }
  return value;
}

export const empty = (status = 200, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers });
