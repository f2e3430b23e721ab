/**
 * The data directory's format version, in `<data>/.deck/format.json` (`{"format": 1, "writtenBy": "..."}`).
 *
 * Every start checks it before anything in the directory is opened: a directory written by a newer format is
 * refused (a newer Deck may have moved records this one would misread, and opening could damage them); an
 * older one would be migrated here, step by step, before the store opens it. A directory without the file is
 * new, or was written by a Deck from before the file existed: both are format 1 (the store still moves the
 * record files of those earlier releases into its log at start), and the file is written then.
 *
 * Raise DATA_FORMAT only with a migration from the previous format and a fixture written by the previous
 * release (tests/fixtures/, tests/packaging/data_format_test.ts).
 */
import { EMBEDDED_VERSION } from "./admin/info.ts";
import { mkdirDurable, writeFileDurable } from "./fs/durable.ts";

/** The format this release writes and reads. */
export const DATA_FORMAT = 1;

interface FormatFile {
  format: number;
  /** The release that wrote the directory last (for the message a newer format gets). */
  writtenBy: string;
}

/** The directory holds data this release must not open. Its message is one line, for the start-up error. */
export class DataFormatError extends Error {
  override name = "DataFormatError";
}

const formatFile = (dataDir: string) => `${dataDir}/.deck/format.json`;

async function readFormat(dataDir: string): Promise<FormatFile | null> {
  let text: string;
  try {
    text = await Deno.readTextFile(formatFile(dataDir));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
  let saved: Partial<FormatFile> | null = null;
  try {
    saved = JSON.parse(text);
  } catch { /* reported below */ }
  if (!saved || !Number.isInteger(saved.format) || (saved.format as number) < 1) {
    throw new DataFormatError(
      `${formatFile(dataDir)} is not a data format file Deck wrote: restore it from a backup (it holds ` +
        `{"format": <n>}); Deck does not guess the format of the data beside it`,
    );
  }
  return { format: saved.format as number, writtenBy: String(saved.writtenBy ?? "an unknown release") };
}

/**
 * Checks that this release can open `dataDir` and records its format there. Throws DataFormatError for a
 * directory of a newer format (or an unreadable format file) before anything in it is touched.
 */
export async function openDataFormat(dataDir: string): Promise<void> {
  const saved = await readFormat(dataDir);
  if (saved && saved.format > DATA_FORMAT) {
    throw new DataFormatError(
      `the data directory ${dataDir} has data format ${saved.format} (written by ${saved.writtenBy}); this ` +
        `Deck (${EMBEDDED_VERSION}) reads format ${DATA_FORMAT}: start the release that wrote it or a newer one`,
    );
  }
  if (saved?.format === DATA_FORMAT && saved.writtenBy === EMBEDDED_VERSION) return;
  await mkdirDurable(`${dataDir}/.deck/tmp`);
  const current: FormatFile = { format: DATA_FORMAT, writtenBy: EMBEDDED_VERSION };
  await writeFileDurable(`${dataDir}/.deck/tmp`, formatFile(dataDir), JSON.stringify(current) + "\n");
}
