/**
 * Loading the object records of one fan-out directory at start (layout in store.ts): records are read,
 * what no committed record references is removed, and key directories of earlier versions of Deck move to
 * the flat layout.
 */
import { syncDir, writeFileDurable } from "./durable.ts";
import { keyPathStem } from "./names.ts";
import type { ObjectRecord } from "./store.ts";

const RECORD = /^([0-9a-f]{64})\.json$/;
const DATA = /^([0-9a-f]{64})\.(.+\.data)$/;

/**
 * Loads the records of one fan-out directory, removing what no committed record references: temp files and
 * data files of crashed or overwritten writes.
 */
export async function loadFanDir(fanDir: string): Promise<ObjectRecord[]> {
  const names: string[] = [];
  const keyDirs: string[] = [];
  for await (const entry of Deno.readDir(fanDir)) {
    if (!entry.isDirectory) names.push(entry.name);
    else if (/^[0-9a-f]{64}$/.test(entry.name)) keyDirs.push(entry.name);
  }
  if (keyDirs.length) {
    for (const hash of keyDirs) await migrateKeyDir(fanDir, hash);
    return await loadFanDir(fanDir);
  }
  const records = new Map<string, ObjectRecord>();
  for (const name of names) {
    const hash = RECORD.exec(name)?.[1];
    if (!hash) continue;
    const record = await readRecord(`${fanDir}/${name}`);
    if (record && record.versions.length > 0 && keyPathStem(record.key).endsWith(hash)) records.set(hash, record);
  }
  for (const name of names) {
    if (RECORD.test(name)) continue;
    const [, hash, dataFile] = DATA.exec(name) ?? [];
    if (hash && records.get(hash)?.versions.some((v) => v.dataFile === dataFile)) continue;
    await Deno.remove(`${fanDir}/${name}`).catch(() => {});
  }
  return [...records.values()];
}

async function readRecord(path: string): Promise<ObjectRecord | null> {
  try {
    const record = JSON.parse(await Deno.readTextFile(path)) as ObjectRecord & { data?: unknown };
    delete record.data; // inline bytes stay on disk; the index holds metadata only
    return record;
  } catch {
    return null;
  }
}

/**
 * Earlier versions of Deck kept each key in a directory (`<hash>/meta.json` and `<hash>/<uuid>.data`); it
 * moves to the flat layout at load. Every step can be repeated after a crash: data files are moved first,
 * the record is written next, and the directory goes last, durably, before anything new is written.
 */
async function migrateKeyDir(fanDir: string, hash: string): Promise<void> {
  const dir = `${fanDir}/${hash}`;
  const text = await Deno.readTextFile(`${dir}/meta.json`).catch(() => null);
  if (text !== null) {
    const record = JSON.parse(text) as ObjectRecord;
    for (const version of record.versions) {
      if (!version.dataFile) continue;
      await Deno.rename(`${dir}/${version.dataFile}`, `${fanDir}/${hash}.${version.dataFile}`).catch((error) => {
        if (!(error instanceof Deno.errors.NotFound)) throw error;
      });
    }
    await writeFileDurable(fanDir, `${fanDir}/${hash}.json`, text);
  }
  await Deno.remove(dir, { recursive: true });
  await syncDir(fanDir);
}
