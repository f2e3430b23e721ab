/**
 * Where a thread's time went, by part of the storage, from a V8 tick profile: each sampled stack counts for
 * the part its innermost recognised frame belongs to (an fdatasync under the PUT handler counts as the
 * durable write). Used for the small-PUT profile in docs/benchmark-notes.md:
 *
 *   DENO_V8_FLAGS=--prof npx -y deno@2.9.6 run -A --unsafe-proto build/bench/put_path_bench.ts
 *   node --prof-process --preprocess isolate-…-v8.log > profile.json   # the storage thread's log
 *   npx -y deno@2.9.6 run -A build/bench/profile_groups.ts profile.json
 *
 * The storage thread's log is the one whose functions include server/storage/s3_server.ts and whose process
 * ran with the log search on (the first Deck the benchmark starts).
 */

interface Profile {
  code: { name?: string }[];
  ticks: { s: number[] }[];
}

/** The parts, innermost first: a frame is matched against them in this order. */
const PARTS: [string, RegExp][] = [
  ["log search ingestion (the main thread's share)", /server\/logsearch\//],
  ["call tracing hooks", /storage\/streams\/calls\.ts/],
  [
    "request records (trace, metrics, audit entries)",
    /storage\/streams\/(requests|hub)\.ts|storage\/logging\/|storage\/metrics\//,
  ],
  [
    "SigV4, IAM and the guess throttle",
    /storage\/auth\/|lib\/s3\/sigv4|storage\/iam\/|lib\/policy\/|throttle/,
  ],
  ["durable write (staging, records log, fdatasync)", /storage\/fs\//],
  ["S3 routing and the PUT handler", /storage\/s3_server\.ts|storage\/s3\//],
  [
    "HTTP front (node:http parse and write, Request/Response bridge)",
    /node:_?http|node:net|node:stream|deno_node\/internal\/streams|lib\/http\/|deno_fetch|deno_http/,
  ],
];

const profile: Profile = JSON.parse(
  (await Deno.readTextFile(Deno.args[0])).replace(/^[^{]*/, ""), // node prints a version warning first
);
const frames = (stack: number[]) =>
  stack.filter((_, i) => i % 2 === 0).map((id) => profile.code[id]?.name ?? "");
const counts = new Map<string, number>();
let withScript = 0;
for (const tick of profile.ticks) {
  const stack = frames(tick.s);
  if (!stack.some((frame) => /file:|node:|ext:/.test(frame))) continue; // idle, or outside any script
  withScript++;
  const frame = stack.find((f) => PARTS.some(([, pattern]) => pattern.test(f)));
  const part = frame ? PARTS.find(([, pattern]) => pattern.test(frame))![0] : "other (promises, timers, GC)";
  counts.set(part, (counts.get(part) ?? 0) + 1);
}
console.log(`${withScript} of ${profile.ticks.length} ticks ran script`);
for (const [part, n] of [...counts].sort((a, b) => b[1] - a[1])) {
  console.log(`${(n * 100 / withScript).toFixed(1).padStart(5)} %  ${part}`);
}
