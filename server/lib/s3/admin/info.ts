/** Server info, storage info, data usage and account info (minio-protocol §3.3). */
import type { S3Client } from "../client.ts";
import type { BucketQuota } from "./buckets.ts";
import { adminJson } from "./request.ts";

export interface DiskInfo {
  endpoint: string;
  rootDisk?: boolean;
  path?: string;
  healing?: boolean;
  state: string;
  uuid?: string;
  model?: string;
  totalspace?: number;
  usedspace?: number;
  availspace?: number;
}

export interface ServerProperties {
  state: string;
  endpoint: string;
  scheme?: string;
  uptime: number;
  version: string;
  commitID?: string;
  network?: Record<string, string>;
  drives?: DiskInfo[];
  poolNumber?: number;
}

export interface InfoMessage {
  mode?: string;
  region?: string;
  sqsARN?: string[];
  deploymentID?: string;
  buckets?: { count: number; error?: string };
  objects?: { count: number; error?: string };
  versions?: { count: number };
  deletemarkers?: { count: number };
  usage?: { size: number; error?: string };
  services?: {
    notifications?: Record<string, Record<string, { status: string }>[]>[];
    [name: string]: unknown;
  };
  backend?: { backendType?: string; onlineDisks?: number; offlineDisks?: number; [name: string]: unknown };
  servers?: ServerProperties[];
}

export function serverInfo(client: S3Client, signal?: AbortSignal): Promise<InfoMessage> {
  return adminJson<InfoMessage>(client, { method: "GET", op: "info", query: { metrics: "false" }, signal });
}

export function storageInfo(
  client: S3Client,
): Promise<{ Disks: DiskInfo[]; Backend: { Type: number; [name: string]: unknown } }> {
  return adminJson(client, { method: "GET", op: "storageinfo" });
}

export interface DataUsageInfo {
  lastUpdate?: string;
  objectsCount: number;
  objectsTotalSize: number;
  bucketsCount: number;
  bucketsUsageInfo?: Record<
    string,
    { size: number; objectsCount: number; versionsCount?: number; deleteMarkersCount?: number }
  >;
}

export function dataUsageInfo(client: S3Client): Promise<DataUsageInfo> {
  return adminJson<DataUsageInfo>(client, {
    method: "GET",
    op: "datausageinfo",
    query: { capacity: "true" },
  });
}

/** MinIO's BucketDetails: the settings AccountInfo reports beside each bucket. */
export interface BucketDetails {
  versioning?: boolean;
  versioningSuspended?: boolean;
  locking?: boolean;
  replication?: boolean;
  /** Null (or absent) when no quota is set. */
  quota?: BucketQuota | null;
}

export interface AccountBucket {
  name: string;
  size: number;
  objects?: number;
  created: string;
  access: { read: boolean; write: boolean };
  /** What the server says of the bucket's settings (MinIO's BucketDetails); older servers leave it out. */
  details?: BucketDetails;
}

export interface AccountInfo {
  AccountName: string;
  Server: { Type: number; [name: string]: unknown };
  Policy: unknown;
  Buckets: AccountBucket[] | null;
}

/** The caller's account: parent name, effective policy (object), backend type (2 = erasure) and buckets. */
export async function accountInfo(client: S3Client, signal?: AbortSignal): Promise<AccountInfo> {
  const info = await adminJson<AccountInfo>(client, { method: "GET", op: "accountinfo", signal });
  // Older servers send the policy as JSON text.
  if (typeof info.Policy === "string") info.Policy = info.Policy ? JSON.parse(info.Policy) : null;
  return info;
}
