/**
 * `deno task compile`: builds the assets, then compiles Deck into one executable at dist/deck.
 *
 * `deno compile` needs the `denort` base binary, which Deno downloads from the internet unless DENORT_BIN
 * points at one. Without either this fails with that message. Pointing DENORT_BIN at `deno` itself is
 * refused: it "succeeds" but produces a binary that opens a REPL.
 */
import { build } from "./build.ts";

const root = new URL("../", import.meta.url).pathname;
const denort = Deno.env.get("DENORT_BIN");
if (denort) {
  const name = denort.split("/").pop() ?? "";
  if (!(await Deno.stat(denort).then((s) => s.isFile, () => false))) {
    console.error(`DENORT_BIN=${denort} does not exist.`);
    Deno.exit(1);
  }
  if (name === "deno" || name === "deno.exe") {
    console.error(
      "DENORT_BIN must point at a denort binary, not at deno itself (that builds a REPL, not Deck).",
    );
    Deno.exit(1);
  }
}

await build({ ifStale: true });
const output = `${root}dist/deck`;
const args = [
  "compile",
  "--node-modules-dir=none",
  "--exclude-unused-npm",
  "--allow-net",
  "--allow-read",
  "--allow-write",
  "--allow-env",
  "--allow-sys",
  // The embedded storage hashes large uploads in a worker; deno compile only bundles worker modules named here.
  "--include",
  `${root}server/storage/fs/spill_worker.ts`,
  // …and notification delivery runs in one too (server/storage/notify/delivery_thread.ts).
  "--include",
  `${root}server/storage/notify/delivery_worker.ts`,
  // …and replication sends too (server/storage/replication/send_thread.ts).
  "--include",
  `${root}server/storage/replication/send_worker.ts`,
  // …and the embedded storage itself runs on a thread of its own (server/storage/thread.ts), started by main.ts.
  "--include",
  `${root}server/storage/worker.ts`,
  "--output",
  output,
  `${root}main.ts`,
];
console.log(`deno ${args.join(" ")}`);
const { code } = await new Deno.Command(Deno.execPath(), {
  args,
  cwd: root,
  stdout: "inherit",
  stderr: "inherit",
}).output();
if (code !== 0) {
  console.error(
    "\ndeno compile failed. It needs the denort base binary: either internet access (Deno downloads it) or\n" +
      "DENORT_BIN=/path/to/denort matching Deno 2.9.6 for this platform.",
  );
  Deno.exit(code);
}
console.log(`built ${output}`);
