/**
 * Uploads from the browser. Small files go in the spec's form upload; files above the threshold go as S3
 * multipart uploads with several parts in flight, one request per part (through the console, or straight
 * to storage on presigned URLs). The upload id is remembered in localStorage under the file's identity, so
 * after a reload or a new sign-in the same file chosen again resumes: the server says which parts exist and
 * only the rest are sent. Cancel aborts the upload, so no parts stay behind. Errors carry the server's
 * reason (the console's JSON message, or the storage's own XML one for parts sent straight to it).
 */
import { ApiClientError } from "../lib/request.ts";
import { objectsApi, objectUrls } from "../lib/api/objects.ts";
import { capitalize, detailBeside } from "../lib/messages.ts";
import { t } from "../lib/i18n/t.ts";

/** A folder's tar in one request, which the storage unpacks (archive_upload.ts made the task). */
async function uploadArchive(
  task: UploadTask,
  onProgress: (p: Progress) => void,
  signal: AbortSignal,
): Promise<void> {
  const url = objectUrls.archive(task.bucket, task.archive!.prefix);
  await sendXhr("PUT", url, task.file, (loaded) => onProgress({ sent: loaded, resumed: 0 }), signal);
  onProgress({ sent: task.file.size, resumed: 0 });
}

/** Files above this go up in parts. */
export const MULTIPART_THRESHOLD = 16 * 1024 * 1024;
/** Parts in flight per file. */
export const PARALLEL_PARTS = 4;

export interface UploadTask {
  bucket: string;
  key: string;
  file: File;
  /** Parts go straight to storage (CONSOLE_STORAGE_PUBLIC_URL is set). */
  direct: boolean;
  /** The file is a tar of a folder that the storage unpacks into `prefix` (archive_upload.ts). */
  archive?: { prefix: string; files: number };
}

export interface Progress {
  sent: number;
  /** Bytes found already stored when the upload resumed. */
  resumed: number;
}

const MEMORY_PREFIX = "deck.upload\n";

/** What a file's upload is remembered by: the same file chosen again for the same object resumes. */
export const resumeKey = (task: Pick<UploadTask, "bucket" | "key" | "file">) =>
  memoryKey(task.bucket, task.key, task.file);

const memoryKey = (bucket: string, key: string, file: { size: number; lastModified: number }) =>
  `${MEMORY_PREFIX}${bucket}\n${key}\n${file.size}\n${file.lastModified}`;

interface SavedUpload {
  uploadId: string;
  /** 0 for an upload this browser did not start: found from its stored parts when it resumes. */
  partSize: number;
}

/** An upload this browser remembers: the object, the file it was started with, and its upload id. */
export interface RememberedUpload extends SavedUpload {
  key: string;
  size: number;
  lastModified: number;
}

/** The uploads this browser started in `bucket` and has not finished (read back from localStorage). */
export function rememberedUploads(bucket: string): RememberedUpload[] {
  const found: RememberedUpload[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const memory = localStorage.key(i) ?? "";
    if (!memory.startsWith(`${MEMORY_PREFIX}${bucket}\n`)) continue;
    // Keys may hold line breaks; bucket, size and date never do.
    const fields = memory.slice(MEMORY_PREFIX.length + bucket.length + 1).split("\n");
    const saved = loadSaved(memory);
    if (!saved || fields.length < 3) continue;
    const lastModified = Number(fields.pop()), size = Number(fields.pop());
    found.push({ ...saved, key: fields.join("\n"), size, lastModified });
  }
  return found;
}

/** Forgets every remembered file of an upload (after it was aborted). */
export function forgetUpload(bucket: string, uploadId: string): void {
  for (const upload of rememberedUploads(bucket)) {
    if (upload.uploadId !== uploadId) continue;
    localStorage.removeItem(memoryKey(bucket, upload.key, upload));
  }
}

/** Makes `task` continue an unfinished upload (`partSize` 0 when another client started it). */
export function adoptUpload(task: UploadTask, uploadId: string, partSize: number): void {
  localStorage.setItem(resumeKey(task), JSON.stringify({ uploadId, partSize }));
}

/** An XMLHttpRequest as a promise, for its upload progress events (fetch has none). */
export function sendXhr(
  method: string,
  url: string,
  body: Blob | FormData,
  onProgress: (loaded: number) => void,
  signal: AbortSignal,
): Promise<XMLHttpRequest> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => (xhr.status >= 200 && xhr.status < 300 ? resolve(xhr) : reject(xhrError(xhr)));
    xhr.onerror = () => reject(new ApiClientError(0, t("objects.uploads.interrupted"), "network error"));
    xhr.onabort = () => reject(new DOMException("cancelled", "AbortError"));
    signal.addEventListener("abort", () => xhr.abort(), { once: true });
    if (signal.aborted) return xhr.abort();
    xhr.send(body);
  });
}

/** The reason of a refused request: the console's JSON error, or the storage's XML one (direct parts). */
function xhrError(xhr: XMLHttpRequest): ApiClientError {
  let message = t("common.error.status", { status: String(xhr.status) }), detail = "";
  try {
    const body = JSON.parse(xhr.responseText);
    message = body.message || message;
    detail = body.detailedMessage ?? "";
  } catch {
    const xml = /<Message>([^<]*)<\/Message>/.exec(xhr.responseText)?.[1];
    if (xml) message = new DOMParser().parseFromString(xml, "text/html").body.textContent ?? message;
  }
  message = capitalize(message);
  return new ApiClientError(xhr.status, message, detailBeside(message, detail));
}

/** Uploads one small file through the form endpoint (its field name is the key, relative to nothing). */
async function uploadSmall(
  task: UploadTask,
  onProgress: (p: Progress) => void,
  signal: AbortSignal,
): Promise<void> {
  const form = new FormData();
  form.append(task.key, task.file, task.file.name);
  await sendXhr(
    "POST",
    objectUrls.formUpload(task.bucket, ""),
    form,
    (loaded) => onProgress({ sent: Math.min(loaded, task.file.size), resumed: 0 }),
    signal,
  );
  onProgress({ sent: task.file.size, resumed: 0 });
}

function loadSaved(key: string): SavedUpload | null {
  try {
    const saved = JSON.parse(localStorage.getItem(key) ?? "null");
    return saved && typeof saved.uploadId === "string" && saved.partSize >= 0 ? saved : null;
  } catch {
    return null;
  }
}

const partCountOf = (size: number, partSize: number) => Math.max(1, Math.ceil(size / partSize));

/**
 * The part size of an upload another client started, read from its stored parts (every part but the last
 * has it); null when nothing usable is stored (S3's 5 MiB minimum, 10,000 parts at most).
 */
function storedPartSize(parts: { size: number }[], fileSize: number): number | null {
  const size = Math.max(0, ...parts.map((p) => p.size));
  return size >= 5 * 1024 * 1024 && partCountOf(fileSize, size) <= 10_000 ? size : null;
}

/** The upload to continue (with the parts the storage holds) or a new one. */
async function openUpload(
  task: UploadTask,
  memory: string,
): Promise<{ saved: SavedUpload; done: Map<number, string> }> {
  const saved = loadSaved(memory);
  if (saved) {
    try {
      const parts = await objectsApi.uploadedParts(task.bucket, task.key, saved.uploadId);
      const partSize = saved.partSize || storedPartSize(parts, task.file.size);
      if (partSize) {
        const partCount = partCountOf(task.file.size, partSize);
        const expected = (
          n: number,
        ) => (n < partCount ? partSize : task.file.size - partSize * (partCount - 1));
        // Only parts of the expected size count; anything else is sent again.
        const done = new Map(
          parts.filter((p) => p.part_number <= partCount && p.size === expected(p.part_number)).map((
            p,
          ) => [p.part_number, p.etag]),
        );
        return { saved: { uploadId: saved.uploadId, partSize }, done };
      }
      // Another client's upload with nothing this file can reuse: replaced by a fresh one.
      await objectsApi.abortUpload(task.bucket, task.key, saved.uploadId);
      localStorage.removeItem(memory);
    } catch (error) {
      if (!(error instanceof ApiClientError && error.status === 404)) throw error;
      localStorage.removeItem(memory); // completed or aborted elsewhere: start over
    }
  }
  const session = await objectsApi.startUpload(task.bucket, task.key, task.file.size, task.file.type || "");
  const fresh = { uploadId: session.upload_id, partSize: session.part_size };
  localStorage.setItem(memory, JSON.stringify(fresh));
  return { saved: fresh, done: new Map() };
}

/** Uploads a large file in parts, resuming a remembered upload. */
async function uploadLarge(
  task: UploadTask,
  onProgress: (p: Progress) => void,
  signal: AbortSignal,
): Promise<void> {
  const memory = resumeKey(task);
  const { saved, done } = await openUpload(task, memory);
  const partCount = partCountOf(task.file.size, saved.partSize);
  const partBytes = (n: number) => Math.min(saved.partSize, task.file.size - (n - 1) * saved.partSize);
  const resumed = [...done.keys()].reduce((sum, n) => sum + partBytes(n), 0);
  const inFlight = new Map<number, number>();
  let finished = resumed;
  const report = () =>
    onProgress({ sent: finished + [...inFlight.values()].reduce((a, b) => a + b, 0), resumed });
  report();
  const queue = Array.from({ length: partCount }, (_, i) => i + 1).filter((n) => !done.has(n));
  const worker = async () => {
    while (queue.length && !signal.aborted) {
      const n = queue.shift()!;
      const slice = task.file.slice((n - 1) * saved.partSize, (n - 1) * saved.partSize + partBytes(n));
      inFlight.set(n, 0);
      const url = task.direct
        ? await objectsApi.presignPart(task.bucket, task.key, saved.uploadId, n)
        : objectUrls.part(task.bucket, task.key, saved.uploadId, n);
      const xhr = await sendXhr("PUT", url, slice, (loaded) => (inFlight.set(n, loaded), report()), signal);
      const etag = task.direct
        ? (xhr.getResponseHeader("ETag") ?? "").replaceAll('"', "")
        : JSON.parse(xhr.responseText).etag;
      done.set(n, etag);
      inFlight.delete(n);
      finished += partBytes(n);
      report();
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_PARTS, queue.length) }, worker));
  if (signal.aborted) throw new DOMException("cancelled", "AbortError");
  await objectsApi.completeUpload(
    task.bucket,
    task.key,
    saved.uploadId,
    [...done].map(([part_number, etag]) => ({ part_number, etag })),
  );
  localStorage.removeItem(memory);
}

/**
 * Whether the form upload stores `key` exactly: its field name carries the key, and browsers write `"`, CR
 * and LF in it as %22, %0D and %0A, so a key holding those very sequences would come out changed.
 */
const formKeepsName = (key: string) => !/%(22|0d|0a)/i.test(key);

/** Uploads a file, resuming when it can; rejects with AbortError when `signal` aborts. */
export function uploadFile(
  task: UploadTask,
  onProgress: (p: Progress) => void,
  signal: AbortSignal,
): Promise<void> {
  if (task.archive) return uploadArchive(task, onProgress, signal);
  const inParts = task.file.size > MULTIPART_THRESHOLD || !formKeepsName(task.key) ||
    loadSaved(resumeKey(task)) !== null;
  return inParts ? uploadLarge(task, onProgress, signal) : uploadSmall(task, onProgress, signal);
}

/** Cancels a file's upload for good: a remembered multipart upload is aborted so no parts stay behind. */
export async function abandonUpload(task: UploadTask): Promise<void> {
  const memory = resumeKey(task);
  const saved = loadSaved(memory);
  localStorage.removeItem(memory);
  if (saved) await objectsApi.abortUpload(task.bucket, task.key, saved.uploadId).catch(() => {});
}
