/**
 * Wire types of the Jobs area (issue 28, Deck's own): copy, move, rename and delete of many objects at once,
 * run by the console's server with the user's own credentials and watched from the object browser.
 *
 *   POST   /jobs                create one (CreateJobInput) → JobView, 201
 *   GET    /jobs                the user's jobs, newest first → JobList
 *   GET    /jobs/{id}           one → JobView (with its failures)
 *   POST   /jobs/{id}/cancel    stop after the objects in flight → JobView
 *   WS     /ws/jobs             {type: "jobs", jobs: JobView[]} whenever they change (at most twice a second)
 *
 * A source is a bucket, a base path and names under it: keys, or folders (ending in "/") meaning every object
 * under them. Each object's destination key is the destination prefix followed by its key without the base,
 * so renaming `docs/a.txt` to `docs/b.txt` is `{base: "docs/a.txt", names: ["docs/a.txt"]}` to prefix
 * `docs/b.txt`, and copying `docs/x/` and `docs/y.txt` into `other/` is base `docs/` to prefix `other/`.
 */
import * as s from "./schema.ts";

export const JOB_KINDS = ["copy", "move", "delete"] as const;
export type JobKind = typeof JOB_KINDS[number];

/** What a copy does when the destination key already holds a different object. */
export const CONFLICT_CHOICES = ["overwrite", "skip", "stop"] as const;
export type ConflictChoice = typeof CONFLICT_CHOICES[number];

/**
 * running: listing or copying; waiting: stopped by a console restart or by the end of its owner's session,
 * resumes with the owner's next live session; done: every object handled (some may have failed); cancelled;
 * stopped: ended early (a conflict with "stop", or an error outside any one object, such as a missing bucket).
 */
export type JobState = "running" | "waiting" | "done" | "cancelled" | "stopped";

const KEY = s.string({ min: 1, max: 1024 });

export const CreateJobInput = s.object({
  kind: s.literal(...JOB_KINDS),
  source: s.object({
    bucket: s.string({ min: 1, max: 63 }),
    base: s.optional(s.string({ max: 1024 }), ""),
    names: s.array(KEY, { min: 1, max: 10_000 }),
  }),
  destination: s.optional(s.object({
    bucket: s.string({ min: 1, max: 63 }),
    prefix: s.optional(s.string({ max: 1024 }), ""),
  })),
  conflict: s.optional(s.literal(...CONFLICT_CHOICES), "overwrite"),
});
export type CreateJobInput = s.Infer<typeof CreateJobInput>;

export interface JobFailure {
  key: string;
  error: string;
}

export interface JobView {
  id: string;
  kind: JobKind;
  state: JobState;
  /** Why a job stopped or waits, in words. */
  reason?: string;
  source: { bucket: string; base: string; names: string[] };
  destination?: { bucket: string; prefix: string };
  conflict: ConflictChoice;
  created: string;
  finished?: string;
  /** Whether every object to handle is known (the listing finished); before that totals are estimates. */
  listed: boolean;
  total_objects: number;
  total_bytes: number;
  done_objects: number;
  done_bytes: number;
  skipped_objects: number;
  failed_objects: number;
  /** Objects and bytes per second over the last few seconds (0 when idle). */
  objects_per_second: number;
  bytes_per_second: number;
  /** Seconds left at the current rate; absent while unknown. */
  seconds_left?: number;
  /** The first failures (at most 100), with each key and its error. */
  failures: JobFailure[];
}

export interface JobList {
  jobs: JobView[];
}

/** What the live updates send. */
export interface JobsMessage {
  type: "jobs";
  jobs: JobView[];
}

/** The destination key of `key` under a job's mapping (see the module comment). */
export function destinationKey(key: string, base: string, prefix: string): string {
  return prefix + key.slice(base.length);
}
