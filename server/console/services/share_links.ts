/**
 * Share links the user controls, with a stateless console: each link is a presigned GET signed by its own
 * service account on the storage server, restricted to that one object (and version) and expiring with the
 * link. Listing the user's links lists those accounts; revoking one deletes its account, and the link stops
 * working at once. Everything lives on the storage server, so it works the same against a real MinIO and
 * from any console replica. The account's secret is used once, to sign, and kept nowhere.
 */
import type { ShareLink } from "../../lib/contract/objects.ts";
import { ApiError } from "../http/errors.ts";
import {
  addServiceAccount,
  deleteServiceAccount,
  infoServiceAccount,
  listServiceAccounts,
} from "../../lib/s3/admin/service_accounts.ts";
import { S3Client } from "../../lib/s3/client.ts";
import { MAX_PRESIGN_SECONDS } from "../../lib/s3/sigv4.ts";
import { isMissingAdminApi } from "../../lib/s3/probe.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

/** Spec 3 §9: a share lasts at most 7 days. */
export const MAX_SHARE_MS = 604_800_000;
/** Service accounts behind share links are named with this prefix (names: a letter first, at most 32 characters). */
const NAME_PREFIX = "deckshare";
const VIA_CONSOLE = "console";
const VIA_STORAGE = "storage";

export interface ShareRequest {
  bucket: string;
  key: string;
  versionId?: string;
  expiresMs: number;
  /** The link goes through the console's public address (`consoleBase`) rather than the storage's. */
  viaConsole: boolean;
}

export interface ShareEndpoints {
  /** Where the console reaches the storage (links through the console are signed for it). */
  internal: string;
  /** The storage as recipients reach it (CONSOLE_STORAGE_PUBLIC_URL, else the internal address). */
  public: string;
  /** The console's own public base URL ending in "/", e.g. https://console.example/ (share route below it). */
  consoleBase: string;
  region: string;
}

/** The policy of a link's account: GetObject on one key (and one version when given). */
function linkPolicy(bucket: string, key: string, versionId?: string) {
  return {
    Version: "2012-10-17",
    Statement: [{
      Effect: "Allow",
      Action: ["s3:GetObject"],
      Resource: [`arn:aws:s3:::${bucket}/${key}`],
      ...(versionId ? { Condition: { StringEquals: { "s3:versionid": [versionId] } } } : {}),
    }],
  };
}

/** The console path recipients open for a link through the console: /shared/<bucket>/<key>?<signature>. */
export const SHARED_ROUTE = "shared";

/**
 * Creates a link: a service account of the signed-in user limited to the object and expiring with the link,
 * then a presigned GET signed by it. Returns the URL to hand out.
 */
export async function createShareLink(
  client: S3Client,
  endpoints: ShareEndpoints,
  request: ShareRequest,
  now = Date.now(),
): Promise<string> {
  if (!Number.isFinite(request.expiresMs) || request.expiresMs <= 0) {
    throw ApiError.badRequest(t("objects.share.dateInPast"));
  }
  if (request.expiresMs > MAX_SHARE_MS) {
    throw ApiError.badRequest(t("objects.share.tooLong"));
  }
  // The link ends on the whole second asked for (the end of a chosen day is 23:59:59): the duration was
  // measured on the browser's clock, and rounding up the time the request took on its way here carried links
  // into the next second, past midnight.
  const second = (ms: number) => Math.floor(ms / 1000) * 1000;
  const expiresAt = Math.max(second(now + request.expiresMs), second(now) + 1000);
  const seconds = Math.min(MAX_PRESIGN_SECONDS, (expiresAt - second(now)) / 1000);
  const expiration = new Date(expiresAt).toISOString();
  const via = request.viaConsole ? VIA_CONSOLE : VIA_STORAGE;
  const credentials = await addServiceAccount(client, {
    policy: linkPolicy(request.bucket, request.key, request.versionId),
    name: `${NAME_PREFIX}-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`,
    // The description says what the link is for when the account is seen elsewhere (user's service accounts).
    description: truncateBytes(`Deck share link (${via}): ${request.bucket}/${request.key}`, 256),
    expiration,
  }).catch((error) => {
    // A server without MinIO's admin API has no service accounts: the link is presigned with the session's
    // own keys, as any S3 tool does. It works until it expires (or the keys change) and cannot be revoked.
    if (isMissingAdminApi(error)) return client.credentials;
    throw error;
  });
  const signer = new S3Client({
    endpoint: request.viaConsole ? endpoints.internal : endpoints.public,
    region: endpoints.region || undefined,
    credentials: {
      accessKey: credentials.accessKey,
      secretKey: credentials.secretKey,
      sessionToken: "sessionToken" in credentials ? credentials.sessionToken : undefined,
    },
  });
  const url = await signer.presign("GET", request.bucket, request.key, seconds, {
    versionId: request.versionId,
  });
  if (!request.viaConsole) return url.href;
  return `${endpoints.consoleBase}${SHARED_ROUTE}${url.pathname}${url.search}`;
}

function truncateBytes(text: string, max: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= max) return text;
  return new TextDecoder().decode(bytes.subarray(0, max - 3)).replace(/\uFFFD$/, "") + "...";
}

/** Reads a link account's object and version back from its policy. */
function linkTarget(
  policyText: string | undefined,
): { bucket: string; key: string; versionId?: string } | null {
  try {
    const statement = JSON.parse(policyText ?? "").Statement?.[0];
    const resource: string = [statement.Resource].flat()[0];
    const path = resource.replace(/^arn:aws:s3:::/, "");
    const slash = path.indexOf("/");
    const version = statement.Condition?.StringEquals?.["s3:versionid"];
    return {
      bucket: path.slice(0, slash),
      key: path.slice(slash + 1),
      versionId: version ? [version].flat()[0] : undefined,
    };
  } catch {
    return null;
  }
}

/** The signed-in user's unexpired links; expired link accounts are deleted on the way (best effort). */
export async function listShareLinks(client: S3Client, now = Date.now()): Promise<ShareLink[]> {
  const all = await listServiceAccounts(client).catch((error) => {
    // Links presigned with the session's keys (no admin API) are kept nowhere: there is nothing to list.
    if (isMissingAdminApi(error)) return [];
    throw error;
  });
  const accounts = all.filter((a) => a.name?.startsWith(`${NAME_PREFIX}-`));
  const links: ShareLink[] = [];
  await Promise.all(accounts.map(async (account) => {
    const expires = account.expiration ? Date.parse(account.expiration) : NaN;
    if (!Number.isNaN(expires) && expires <= now) {
      await deleteServiceAccount(client, account.accessKey).catch(() => {});
      return;
    }
    const info = await infoServiceAccount(client, account.accessKey).catch(() => null);
    const target = linkTarget(info?.policy);
    if (!info || !target) return;
    links.push({
      id: account.accessKey,
      bucket: target.bucket,
      object: target.key,
      version_id: target.versionId,
      expires: Number.isNaN(expires) ? "" : new Date(expires).toISOString(),
      via_console: (info.description ?? account.description ?? "").startsWith(
        `Deck share link (${VIA_CONSOLE})`,
      ),
    });
  }));
  return links.sort((a, b) => a.expires.localeCompare(b.expires));
}

/** Revokes a link: its account goes, so its signature stops being accepted at once. */
export async function revokeShareLink(client: S3Client, id: string): Promise<void> {
  const accounts = await listServiceAccounts(client).catch((error) => {
    if (!isMissingAdminApi(error)) throw error;
    throw new ApiError(501, "share links cannot be revoked on this server", {
      detail:
        "this server does not speak MinIO's admin API: its links are presigned URLs that end when they expire",
    });
  });
  const account = accounts.find((a) => a.accessKey === id);
  if (!account || !account.name?.startsWith(`${NAME_PREFIX}-`)) {
    throw ApiError.notFound("not found", t("objects.share.notFound"));
  }
  await deleteServiceAccount(client, id);
}
