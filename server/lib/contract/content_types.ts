/**
 * Content types by file extension: what an upload is stored as when the browser does not say, and which
 * objects the Preview may show inline (spec 3 §9 preview types), with the type it is shown as.
 */

const TYPES: Record<string, string> = {
  txt: "text/plain",
  csv: "text/csv",
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  json: "application/json",
  xml: "application/xml",
  pdf: "application/pdf",
  zip: "application/zip",
  gz: "application/gzip",
  tar: "application/x-tar",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  png: "image/png",
  svg: "image/svg+xml",
  webp: "image/webp",
  wav: "audio/wav",
  mp3: "audio/mpeg",
  aac: "audio/aac",
  mp4: "video/mp4",
  avi: "video/x-msvideo",
  mpg: "video/mpeg",
  mpeg: "video/mpeg",
};

export const extensionOf = (key: string) => {
  const name = key.slice(key.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : "";
};

/** The type an object of this name is stored as when nothing better is known. */
export function contentTypeOf(key: string): string {
  return TYPES[extensionOf(key)] ?? "application/octet-stream";
}

export type PreviewKind = "image" | "text" | "audio" | "video";

/** Spec 3 §9: image (jpg, jpeg, gif, png), text (pdf, txt), audio (wav, mp3, aac), video (mp4, avi, mpg). */
const PREVIEW: Record<string, PreviewKind> = {
  jpg: "image",
  jpeg: "image",
  gif: "image",
  png: "image",
  pdf: "text",
  txt: "text",
  wav: "audio",
  mp3: "audio",
  aac: "audio",
  mp4: "video",
  avi: "video",
  mpg: "video",
};

export function previewKindOf(key: string): PreviewKind | null {
  return PREVIEW[extensionOf(key)] ?? null;
}

/**
 * The type a preview is served as: fixed by extension, never the stored type, so an object cannot make
 * the console's origin render HTML or script (text is shown as plain UTF-8 text).
 */
export function previewContentType(key: string): string | null {
  if (!previewKindOf(key)) return null;
  return extensionOf(key) === "txt" ? "text/plain; charset=utf-8" : TYPES[extensionOf(key)];
}
