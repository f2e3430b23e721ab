import assert from "node:assert/strict";
// Outside a request the console's texts are English: the functions under test say what the English screen says.
import "../../server/console/render/i18n.ts";
import type { JobView } from "../../server/lib/contract/jobs.ts";
import { jobInput } from "./JobDialog.tsx";
import { jobProgressText, jobTitle } from "./JobsPanel.tsx";

const source = { bucket: "b", prefix: "docs/", names: ["docs/a b.txt", "docs/x 🎉/"] };

Deno.test("jobInput: copy and move map the selection under the chosen path", () => {
  assert.deepEqual(jobInput("move", source, { bucket: "c", prefix: "to" }, "", "skip"), {
    kind: "move",
    source: { bucket: "b", base: "docs/", names: source.names },
    destination: { bucket: "c", prefix: "to/" },
    conflict: "skip",
  });
  assert.equal(
    jobInput("copy", source, { bucket: "b", prefix: "docs/" }, "", "overwrite"),
    "Choose another folder: this is where the selection is",
  );
  assert.equal(
    jobInput("copy", source, { bucket: "b", prefix: "docs/x 🎉/in/" }, "", "overwrite"),
    "x 🎉/ cannot go inside itself",
  );
});

Deno.test("jobInput: rename keeps the folder and the kind of entry", () => {
  const one = { bucket: "b", prefix: "docs/", names: ["docs/x 🎉/"] };
  assert.deepEqual(jobInput("rename", one, { bucket: "b", prefix: "" }, "y + 100% #?", "stop"), {
    kind: "move",
    source: { bucket: "b", base: "docs/x 🎉/", names: ["docs/x 🎉/"] },
    destination: { bucket: "b", prefix: "docs/y + 100% #?/" },
    conflict: "stop",
  });
  assert.equal(
    jobInput("rename", one, { bucket: "b", prefix: "" }, "a/b", "stop"),
    "Type a new name without /",
  );
  assert.equal(jobInput("rename", one, { bucket: "b", prefix: "" }, "x 🎉", "stop"), "Type a different name");
});

Deno.test("job progress says 'at least' until the listing is done", () => {
  const job: JobView = {
    id: "1",
    kind: "move",
    state: "running",
    source: { bucket: "b", base: "docs/a.txt", names: ["docs/a.txt"] },
    destination: { bucket: "b", prefix: "docs/b.txt" },
    conflict: "overwrite",
    created: "",
    listed: false,
    total_objects: 1000,
    total_bytes: 2048,
    done_objects: 10,
    done_bytes: 1024,
    skipped_objects: 0,
    failed_objects: 2,
    objects_per_second: 5,
    bytes_per_second: 512,
    failures: [],
  };
  assert.equal(jobTitle(job), "Rename b/docs/a.txt to docs/b.txt");
  assert.match(
    jobProgressText(job),
    /^10 of at least 1,000 objects · 1 KiB of at least 2 KiB · 2 failed · 5 objects\/s/,
  );
  assert.match(
    jobProgressText({ ...job, listed: true, seconds_left: 120 }),
    /10 of 1,000 objects.*about 2 minutes left/,
  );
});
