/**
 * Archives for the auto-extract tests, made by real tools: GNU tar for ordinary folders (plain and gzip),
 * Python's tarfile for the entries no folder can hold (absolute paths, "..", links).
 */

/** The files of a folder to archive: relative path → text. */
export type Files = Record<string, string>;

/** Writes `files` under a new temp folder and returns it. */
export async function folderOf(files: Files): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "deck-extract-" });
  for (const [path, text] of Object.entries(files)) {
    const full = `${dir}/src/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, text);
  }
  return dir;
}

/** GNU tar of the folder's `src` (names relative to it, in a fixed order); returns the archive's path. */
export async function gnuTar(dir: string, names: string[], gzip: boolean): Promise<string> {
  const out = `${dir}/archive.tar${gzip ? ".gz" : ""}`;
  const result = await new Deno.Command("tar", {
    args: [gzip ? "-czf" : "-cf", out, "--format=posix", "-C", `${dir}/src`, "--", ...names],
    stderr: "piped",
  }).output();
  if (!result.success) throw new Error(`tar failed: ${new TextDecoder().decode(result.stderr)}`);
  return out;
}

/**
 * Python's tarfile writes entries as listed: [name, kind, text-or-link-target], kind "file", "dir",
 * "symlink" or "hardlink".
 */
export async function craftedTar(dir: string, entries: [string, string, string][]): Promise<string> {
  const out = `${dir}/crafted.tar`;
  const script = `
import io, json, sys, tarfile
entries = json.loads(sys.argv[2])
with tarfile.open(sys.argv[1], "w", format=tarfile.PAX_FORMAT) as tar:
    for name, kind, data in entries:
        info = tarfile.TarInfo(name)
        info.mtime = 1700000000
        if kind == "file":
            body = data.encode()
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
        else:
            info.type = {"dir": tarfile.DIRTYPE, "symlink": tarfile.SYMTYPE, "hardlink": tarfile.LNKTYPE}[kind]
            info.linkname = data
            tar.addfile(info)
`;
  const result = await new Deno.Command("python3", {
    args: ["-c", script, out, JSON.stringify(entries)],
    stderr: "piped",
  }).output();
  if (!result.success) throw new Error(`tarfile failed: ${new TextDecoder().decode(result.stderr)}`);
  return out;
}
