/**
 * What start finds in the fan-out directories of a bucket (layout in store.ts): data files, temp files of
 * crashed writes, and the per-key record files of earlier versions of Deck (`<hash>.json`, and before that
 * `<hash>/meta.json` directories), which move into the bucket's records log.
 */
import { syncDir, writeFileDurable } from "./durable.ts";
import { keyPathStem } from "./names.ts";
import type { RecordWithData } from "./record_log.ts";
import type { ObjectRecord } from "../core/records.ts";

const RECORD = /^([0-9a-f]{64})\.json$/;
const DATA = /^[0-9a-f]{64}\.(.+\.data)$/;

export interface FanDirContents {
  /** Records kept in files by earlier versions, with their inline bytes. */
  legacy: RecordWithData[];
  /** Those record files (readable or not), to remove once the log holds their records. */
  legacyFiles: string[];
  /** Data files by path, with the name records refer to them by. */
  dataFiles: { path: string; dataFile: string }[];
  /** Anything else: temp files of writes a crash interrupted. */
  junk: string[];
}

/** Lists one fan-out directory, first moving key directories of the oldest layout to record files. */
export async function scanFanDir(fanDir: string): Promise<FanDirContents> {
  const names: string[] = [];
  const keyDirs: string[] = [];
  for await (const entry of Deno.readDir(fanDir)) {
    if (!entry.isDirectory) names.push(entry.name);
    else if (/^[0-9a-f]{64}$/.test(entry.name)) keyDirs.push(entry.name);
  }
  if (keyDirs.length) {
    for (const hash of keyDirs) await migrateKeyDir(fanDir, hash);
    return await scanFanDir(fanDir);
  }
  const contents: FanDirContents = { legacy: [], legacyFiles: [], dataFiles: [], junk: [] };
  for (const name of names) {
    const path = `${fanDir}/${name}`;
    const hash = RECORD.exec(name)?.[1];
    const dataFile = DATA.exec(name)?.[1];
    if (hash) {
      contents.legacyFiles.push(path);
      const found = await readRecordFile(path);
      if (found && keyPathStem(found.record.key).endsWith(hash)) contents.legacy.push(found);
    } else if (dataFile) contents.dataFiles.push({ path, dataFile });
    else contents.junk.push(path);
  }
  return contents;
}

async function readRecordFile(path: string): Promise<RecordWithData | null> {
  try {
    const parsed = JSON.parse(await Deno.readTextFile(path)) as ObjectRecord & {
      data?: Record<string, string>;
    };
    const data = new Map(
      Object.entries(parsed.data ?? {}).map(([id, base64]) => [id, Uint8Array.fromBase64(base64)]),
    );
    return { record: { key: parsed.key, versions: parsed.versions }, data };
  } catch {
    return null;
  }
}

/**
 * The oldest layout kept each key in a directory (`<hash>/meta.json` and `<hash>/<uuid>.data`); it becomes
 * a record file beside flat data files. Every step can be repeated after a crash: data files are moved
 * first, the record is written next, and the directory goes last, durably.
 */
async function migrateKeyDir(fanDir: string, hash: string): Promise<void> {
  const dir = `${fanDir}/${hash}`;
  const text = await Deno.readTextFile(`${dir}/meta.json`).catch(() => null);
  if (text !== null) {
    const record = JSON.parse(text) as ObjectRecord;
    for (const version of record.versions) {
      if (!version.dataFile) continue;
      await Deno.rename(`${dir}/${version.dataFile}`, `${fanDir}/${hash}.${version.dataFile}`).catch(
        (error) => {
          if (!(error instanceof Deno.errors.NotFound)) throw error;
        },
      );
    }
    await writeFileDurable(fanDir, `${fanDir}/${hash}.json`, text);
  }
  await Deno.remove(dir, { recursive: true });
  await syncDir(fanDir);
}
