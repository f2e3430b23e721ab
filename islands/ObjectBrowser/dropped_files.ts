/**
 * Files the user gives to upload, with their paths relative to the folder they land in: from a file input
 * (a folder input gives each file's path within the chosen folder) or from a drop, whose folders are
 * walked through the File System entries API.
 */

export interface ChosenFile {
  file: File;
  /** "name.txt" or "folder/sub/name.txt". */
  path: string;
}

export function filesFromInput(list: FileList | null): ChosenFile[] {
  return [...(list ?? [])].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

async function walk(entry: FileSystemEntry, path: string, out: ChosenFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject)
    );
    out.push({ file, path: path + file.name });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches until it returns none.
  for (let batch = await readEntries(reader); batch.length; batch = await readEntries(reader)) {
    for (const child of batch) await walk(child, `${path}${entry.name}/`, out);
  }
}

export async function filesFromDrop(data: DataTransfer): Promise<ChosenFile[]> {
  const entries = [...data.items].map((item) => item.webkitGetAsEntry?.()).filter((e): e is FileSystemEntry =>
    !!e
  );
  if (!entries.length) return filesFromInput(data.files);
  const out: ChosenFile[] = [];
  for (const entry of entries) await walk(entry, "", out);
  return out;
}
