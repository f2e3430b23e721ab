/**
 * "Upload as archive": a folder of many small files goes up as one tar that the storage unpacks into the
 * folder (MinIO's auto-extract upload, which the embedded storage implements too), one request instead of
 * one per file. Where the storage cannot unpack (not MinIO), the files go up one by one as usual.
 */
import { tarBlob } from "../lib/tar_writer.ts";
import type { ChosenFile } from "./dropped_files.ts";
import type { UploadTask } from "./uploads.ts";

/** MinIO's prefix header carries printable ASCII only; another folder path goes into the entry names. */
const headerSafe = (prefix: string) => /^[\x20-\x7e]*$/.test(prefix);

/**
 * The upload tasks for `files` chosen for folder `prefix` of `bucket`: one archive task when the storage
 * unpacks archives and there is more than one file, else one task per file.
 */
export function archiveTasks(
  place: { bucket: string; prefix: string; direct: boolean; archives: boolean },
  files: ChosenFile[],
): UploadTask[] {
  const { bucket, prefix, direct } = place;
  if (!place.archives || files.length < 2) {
    return files.map(({ file, path }) => ({ bucket, key: prefix + path, file, direct }));
  }
  const inHeader = headerSafe(prefix);
  const blob = tarBlob(files.map(({ file, path }) => ({
    name: inHeader ? path : prefix + path,
    file,
    modified: new Date(file.lastModified),
  })));
  // The row shows the chosen folder (or the first file's) and how many files the archive carries.
  const top = files[0].path.split("/")[0];
  const label = files.every((f) => f.path.startsWith(`${top}/`)) ? `${top}/` : top;
  return [{
    bucket,
    key: `${prefix}${label} (${files.length} files, as an archive)`,
    file: new File([blob], `${label}.tar`, { type: "application/x-tar" }),
    direct,
    archive: { prefix: inHeader ? prefix : "", files: files.length },
  }];
}
