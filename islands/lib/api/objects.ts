/** Browser calls of the Objects area (api-index §6, spec 3 §7.3, and Deck's additions). */
import type {
  FolderVersioning,
  ObjectDetail,
  ObjectItem,
  ObjectList,
  PendingUpload,
  RewindList,
  SearchEvent,
  ShareLink,
  UploadedPart,
  UploadSession,
} from "../../../server/lib/contract/objects.ts";
import { api, apiUrl, segment } from "../request.ts";
import { t } from "../i18n/t.ts";

const b = (bucket: string) => `/api/v1/buckets/${segment(bucket)}`;
const q = (params: Record<string, string | number | boolean | undefined | null>) =>
  Object.entries(params).filter(([, v]) => v !== undefined && v !== null && v !== "").map(([k, v]) =>
    `${k}=${encodeURIComponent(String(v))}`
  ).join("&");

/** Page size the browser asks for: S3's page, so each scroll costs one storage call. */
export const PAGE_SIZE = 1000;

export const objectsApi = {
  /** One page of a folder; `deleted` lists each key's latest version, deleted ones included. */
  page: (bucket: string, prefix: string, options: { token?: string; deleted?: boolean } = {}) =>
    api.get<ObjectList>(
      `${b(bucket)}/objects?${
        q({ prefix, limit: PAGE_SIZE, token: options.token, with_deleted: options.deleted || undefined })
      }`,
    ),
  rewind: (bucket: string, prefix: string, date: string) =>
    api.get<RewindList>(`${b(bucket)}/rewind/${segment(date)}?${q({ prefix })}`),
  detail: (bucket: string, key: string, versionId?: string | null) =>
    api.get<ObjectDetail>(`${b(bucket)}/objects/detail?${q({ prefix: key, version_id: versionId })}`),
  versions: async (bucket: string, key: string) =>
    (await api.get<ObjectList>(`${b(bucket)}/objects/versions?${q({ prefix: key })}`)).objects ?? [],
  /** Whether the bucket has versioning on, null when the user may not read that (never refused). */
  versioning: (bucket: string) => api.get<FolderVersioning>(`${b(bucket)}/objects/versioning`),
  /** Makes an older version the current one again. */
  restore: (bucket: string, key: string, versionId: string) =>
    api.put(`${b(bucket)}/objects/restore?${q({ prefix: key, version_id: versionId })}`),
  remove: (bucket: string, path: string, options: { versionId?: string | null; recursive?: boolean } = {}) =>
    api.delete(
      `${b(bucket)}/objects?${
        q({ path, version_id: options.versionId, recursive: options.recursive ? "true" : undefined })
      }`,
    ),
  removeMany: (bucket: string, items: { path: string; versionID?: string; recursive?: boolean }[]) =>
    api.post(`${b(bucket)}/delete-objects`, items),
  share: (
    bucket: string,
    key: string,
    versionId: string | null | undefined,
    expiresMs: number,
    via: "console" | "storage",
  ) =>
    api.get<string>(
      `${b(bucket)}/objects/share?${
        q({ prefix: key, version_id: versionId ?? "null", expires: `${expiresMs}ms`, via })
      }`,
    ),
  setRetention: (
    bucket: string,
    key: string,
    versionId: string | null | undefined,
    body: { mode: "governance" | "compliance"; expires: string },
  ) => api.put(`${b(bucket)}/objects/retention?${q({ prefix: key, version_id: versionId ?? "null" })}`, body),
  removeRetention: (bucket: string, key: string, versionId: string | null | undefined) =>
    api.delete(`${b(bucket)}/objects/retention?${q({ prefix: key, version_id: versionId ?? "null" })}`),
  setTags: (
    bucket: string,
    key: string,
    versionId: string | null | undefined,
    tags: Record<string, string>,
  ) => api.put(`${b(bucket)}/objects/tags?${q({ prefix: key, version_id: versionId ?? "null" })}`, { tags }),
  setLegalHold: (
    bucket: string,
    key: string,
    versionId: string | null | undefined,
    status: "enabled" | "disabled",
  ) =>
    api.put(`${b(bucket)}/objects/legalhold?${q({ prefix: key, version_id: versionId ?? "null" })}`, {
      status,
    }),
  shareLinks: async () => (await api.get<{ links: ShareLink[] | null }>("/api/v1/share-links")).links ?? [],
  revokeShareLink: (id: string) => api.delete(`/api/v1/share-links/${segment(id)}`),
  startUpload: (bucket: string, key: string, size: number, contentType: string) =>
    api.post<UploadSession>(`${b(bucket)}/uploads`, { key, size, content_type: contentType }),
  uploadedParts: async (bucket: string, key: string, uploadId: string) =>
    (await api.get<{ parts: UploadedPart[] | null }>(
      `${b(bucket)}/uploads/${segment(uploadId)}/parts?${q({ key })}`,
    )).parts ?? [],
  presignPart: async (bucket: string, key: string, uploadId: string, part: number) =>
    (await api.post<{ url: string }>(
      `${b(bucket)}/uploads/${segment(uploadId)}/parts/${part}/presign?${q({ key })}`,
    )).url,
  completeUpload: (
    bucket: string,
    key: string,
    uploadId: string,
    parts: { part_number: number; etag: string }[],
  ) => api.post<{ etag: string }>(`${b(bucket)}/uploads/${segment(uploadId)}/complete`, { key, parts }),
  pendingUploads: async (bucket: string) =>
    (await api.get<{ uploads: PendingUpload[] | null }>(`${b(bucket)}/uploads`)).uploads ?? [],
  abortUpload: (bucket: string, key: string, uploadId: string) =>
    api.delete(`${b(bucket)}/uploads/${segment(uploadId)}?${q({ key })}`),
};

/** URLs the browser opens itself (downloads, previews, part and form uploads). */
export const objectUrls = {
  download: (bucket: string, key: string, versionId?: string | null, downloadId?: string) =>
    apiUrl(
      `${b(bucket)}/objects/download?${q({ prefix: key, version_id: versionId, download_id: downloadId })}`,
    ),
  preview: (bucket: string, key: string, versionId?: string | null) =>
    apiUrl(`${b(bucket)}/objects/download?${q({ prefix: key, version_id: versionId, preview: "true" })}`),
  zipFolder: (bucket: string, prefix: string, downloadId?: string) =>
    apiUrl(`${b(bucket)}/objects/zip?${q({ prefix, download_id: downloadId })}`),
  zipSelection: (bucket: string, downloadId?: string) =>
    apiUrl(`${b(bucket)}/objects/zip?${q({ download_id: downloadId })}`),
  formUpload: (bucket: string, prefix: string) => apiUrl(`${b(bucket)}/objects/upload?${q({ prefix })}`),
  /** A tar the storage unpacks into the folder `prefix` (the console's PUT …/objects/archive). */
  archive: (bucket: string, prefix: string) => apiUrl(`${b(bucket)}/objects/archive?${q({ prefix })}`),
  part: (bucket: string, key: string, uploadId: string, part: number) =>
    apiUrl(`${b(bucket)}/uploads/${segment(uploadId)}/parts/${part}?${q({ key })}`),
};

/**
 * Streams a whole-bucket search: calls `onEvent` for each NDJSON line as it arrives; aborting `signal`
 * stops the server's scan too.
 */
export async function searchBucket(
  bucket: string,
  prefix: string,
  query: string,
  mode: "substring" | "glob",
  signal: AbortSignal,
  onEvent: (event: SearchEvent) => void,
): Promise<void> {
  const res = await fetch(apiUrl(`${b(bucket)}/objects/search?${q({ prefix, q: query, mode })}`), {
    signal,
    credentials: "same-origin",
  });
  if (!res.ok || !res.body) {
    const body = await res.json().catch(() => ({}));
    onEvent({
      type: "error",
      message: body.detailedMessage || body.message ||
        t("common.error.status", { status: String(res.status) }),
    });
    return;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += value;
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) onEvent(JSON.parse(line));
  }
}

export type { ObjectDetail, ObjectItem };
