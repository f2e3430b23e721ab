/**
 * A bucket search with a glob that sends a backtracking matcher into years of work, run against Deck as a
 * process (main_process_test.ts): the console must finish it and keep answering others while it runs.
 * In-process, a console stuck in such a search would stop the test itself too, so it needs its own process.
 */
import assert from "node:assert/strict";
import { makeBucket, putObject, S3Client } from "../../server/lib/s3/mod.ts";
import type { SearchEvent } from "../../server/lib/contract/objects.ts";
import { ConsoleClient } from "../helpers.ts";

/** `*a*a*a*a*a*a*` then 100 a's and a b: at least 106 a's, then b, at the end of the key. */
const PATTERN = `*a*a*a*a*a*a*${"a".repeat(100)}b`;
/** Sorted first ("!" comes before "a"), so the answer starts with this hit while the page is still matched. */
const FIRST_HIT = `!fête 🎉 + % # ? 日本 ${"a".repeat(110)}b`;
const LATER_HIT = `${"a".repeat(300)}b`;
/** One a short of a match. */
const NEAR_MISS = `${"a".repeat(105)}b`;
/** Long keys that are all a's: every way of placing the six single a's fails, and a regex tries them all. */
const LONG_KEYS = Array.from({ length: 1500 }, (_, i) => `${"a".repeat(900)}-${String(i).padStart(4, "0")}`);

async function* ndjson(body: ReadableStream<Uint8Array<ArrayBuffer>>): AsyncGenerator<SearchEvent> {
  let buffered = "";
  for await (const text of body.pipeThrough(new TextDecoderStream())) {
    buffered += text;
    const lines = buffered.split("\n");
    buffered = lines.pop()!;
    for (const line of lines) if (line) yield JSON.parse(line);
  }
}

export async function searchKeepsConsoleServing(
  consoleUrl: string,
  storageUrl: string,
  root: { accessKey: string; secretKey: string },
): Promise<void> {
  const admin = new S3Client({ endpoint: storageUrl, credentials: root });
  await makeBucket(admin, "long-keys");
  const keys = [FIRST_HIT, LATER_HIT, NEAR_MISS, ...LONG_KEYS];
  for (let i = 0; i < keys.length; i += 25) {
    await Promise.all(keys.slice(i, i + 25).map((key) => putObject(admin, "long-keys", key, "")));
  }
  const user = new ConsoleClient(consoleUrl);
  assert.equal((await user.request("POST", "/api/v1/login", root)).status, 201);

  // Only a guard against a stuck console hanging the suite: the assertions are about order and outcome.
  const guard = AbortSignal.timeout(120_000);
  const res = await fetch(
    `${consoleUrl}/api/v1/buckets/long-keys/objects/search?mode=glob&q=${encodeURIComponent(PATTERN)}`,
    { headers: { cookie: user.cookie }, signal: guard },
  );
  assert.equal(res.status, 200);
  const seen: string[] = [];
  const hits: string[] = [];
  let health: Promise<void> | null = null;
  let done: SearchEvent | null = null;
  try {
    for await (const event of ndjson(res.body!)) {
      if (event.type === "hit") hits.push(event.object.name);
      seen.push(event.type);
      if (event.type === "done") done = event;
      // The first hit arrives while the rest of the first page is still being matched: ask then.
      health ??= fetch(`${consoleUrl}/healthz`, { signal: guard }).then(async (answer) => {
        assert.equal(answer.status, 200);
        await answer.body?.cancel();
        seen.push("healthz");
      });
    }
    await health;
  } catch (error) {
    throw new Error(`the console did not finish the search or answer /healthz meanwhile (${seen}): ${error}`);
  }
  assert.deepEqual(hits, [FIRST_HIT, LATER_HIT], "the glob matched exactly the keys it describes");
  assert.deepEqual(done, { type: "done", scanned: keys.length, hits: 2 });
  assert.ok(
    seen.indexOf("healthz") < seen.indexOf("progress"),
    `/healthz was answered while the first page was still being matched: ${seen.join(", ")}`,
  );
}
