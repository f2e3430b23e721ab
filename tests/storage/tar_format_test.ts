/**
 * The tar writer (islands/lib/tar_writer.ts) and reader (server/lib/formats/tar_reader.ts) against GNU tar:
 * what we write, GNU tar lists and unpacks with the same names (pax for long and non-ASCII ones); what GNU
 * tar writes in each of its formats, we read.
 */
import assert from "node:assert/strict";
import { END_OF_ARCHIVE, tarBlob, tarSize, tarStream } from "../../islands/lib/tar_writer.ts";
import { readTar } from "../../server/lib/formats/tar_reader.ts";

const NAMES = [
  "plain.txt",
  "dossier été/vidéo 😀 +%#?.txt",
  "Ελληνικά/日本語/عربي.txt",
  `${"long-directory-name/".repeat(8)}file.txt`,
];
const textOf = (name: string) => `contents of ${name}\n`.repeat(50);

async function gnuList(bytes: Uint8Array, args: string[]): Promise<string> {
  const file = await Deno.makeTempFile({ suffix: ".tar" });
  try {
    await Deno.writeFile(file, bytes);
    const out = await new Deno.Command("tar", { args: [...args, "-f", file], stdout: "piped" }).output();
    assert.ok(out.success);
    return new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("tar writer: GNU tar reads names and bytes back, sizes are exact", async () => {
  const entries = NAMES.map((name) => ({ name, size: new TextEncoder().encode(textOf(name)).length }));
  const streamed = new Uint8Array(
    await new Response(
      tarStream(entries.map((e) => ({ ...e, open: () => new Blob([textOf(e.name)]).stream() }))),
    )
      .arrayBuffer(),
  );
  const blob = new Uint8Array(
    await tarBlob(NAMES.map((name) => ({ name, file: new Blob([textOf(name)]) }))).arrayBuffer(),
  );
  assert.deepEqual(streamed, blob, "the stream and the Blob are the same archive");
  assert.equal(streamed.length, tarSize(entries));
  assert.deepEqual(streamed.subarray(streamed.length - END_OF_ARCHIVE.length), END_OF_ARCHIVE);
  assert.deepEqual((await gnuList(streamed, ["-t"])).trim().split("\n"), NAMES);
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/a.tar`, streamed);
    const out = await new Deno.Command("tar", { args: ["-x", "-f", `${dir}/a.tar`, "-C", dir] }).output();
    assert.ok(out.success);
    for (const name of NAMES) assert.equal(await Deno.readTextFile(`${dir}/${name}`), textOf(name));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

for (const format of ["gnu", "ustar", "posix", "v7"]) {
  Deno.test(`tar reader: reads GNU tar's ${format} format, plain and gzip`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const names = format === "v7" || format === "ustar" ? ["plain.txt", "sub dir/a b.txt"] : NAMES;
      for (const name of names) {
        await Deno.mkdir(`${dir}/src/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
        await Deno.writeTextFile(`${dir}/src/${name}`, textOf(name));
      }
      for (const gzip of [false, true]) {
        const out = `${dir}/a.tar`;
        const made = await new Deno.Command("tar", {
          args: [gzip ? "-czf" : "-cf", out, `--format=${format}`, "-C", `${dir}/src`, "--", ...names],
        }).output();
        assert.ok(made.success);
        const seen: [string, string][] = [];
        for await (const entry of readTar((await Deno.open(out)).readable)) {
          if (entry.type === "file") seen.push([entry.name, new TextDecoder().decode(await entry.bytes())]);
        }
        assert.deepEqual(seen, names.map((n) => [n, textOf(n)]));
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
