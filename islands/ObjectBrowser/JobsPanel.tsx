/**
 * The jobs panel of the object browser (issue 28): the user's running and finished jobs with their progress
 * (objects and bytes done of the total, "at least" while the listing runs), rate, time left and failures,
 * and Cancel. Updates come over /ws/jobs, at most twice a second; nothing polls.
 */
import { useEffect, useRef } from "react";
import type { JobsMessage, JobView } from "../../server/lib/contract/jobs.ts";
import { jobsApi } from "../lib/api/jobs.ts";
import { formatBytes, formatDuration } from "../lib/format.ts";
import { useLiveSocket } from "../lib/live_socket.ts";
import { reportError } from "../lib/use_list.ts";
import { t } from "../lib/i18n/t.ts";

/** How long before the panel opened a job may have ended and still reload the folder. */
const RECENT_MS = 5000;

/** "Move 3 items from photos/2024/ to archive/2024/" (a rename reads as one). */
export function jobTitle(job: JobView): string {
  const { source, destination } = job;
  const what = source.names.length === 1
    ? source.names[0]
    : t("objects.jobs.items", { count: source.names.length });
  const rename = job.kind === "move" && source.names.length === 1 && source.base === source.names[0] &&
    destination?.bucket === source.bucket;
  if (rename) {
    return t("objects.jobs.rename", {
      source: `${source.bucket}/${source.names[0]}`,
      target: destination!.prefix,
    });
  }
  const bucket = source.bucket;
  if (job.kind === "delete" || !destination) {
    return t(
      job.kind === "copy"
        ? "objects.jobs.copyFrom"
        : job.kind === "move"
        ? "objects.jobs.moveFrom"
        : "objects.jobs.deleteFrom",
      { what, bucket },
    );
  }
  return t(job.kind === "copy" ? "objects.jobs.copyTo" : "objects.jobs.moveTo", {
    what,
    bucket,
    destination: `${destination.bucket}/${destination.prefix}`,
  });
}

const TONES: Record<JobView["state"], string> = {
  running: "badge-info",
  waiting: "badge-warning",
  done: "badge-success",
  cancelled: "badge-ghost",
  stopped: "badge-error",
};

const stateLabel = (state: JobView["state"]): string =>
  t(
    state === "running"
      ? "objects.jobs.stateRunning"
      : state === "waiting"
      ? "objects.jobs.stateWaiting"
      : state === "done"
      ? "objects.jobs.stateDone"
      : state === "cancelled"
      ? "objects.jobs.stateCancelled"
      : "objects.jobs.stateStopped",
  );

/**
 * A job's reason or a failure's error in the language shown: the server keeps them (in its store, for every
 * viewer) in English, so the sentences it writes are matched here; a storage's own message stays as it came.
 */
export function jobText(text: string): string {
  let m: RegExpExecArray | null;
  if ((m = /^waiting for (.+) to sign in to resume$/.exec(text))) {
    return t("objects.jobs.reasonWaiting", { owner: m[1] });
  }
  if ((m = /^stopped: the session of (.+) ended; resumes when they sign in again$/.exec(text))) {
    return t("objects.jobs.reasonStoppedSession", { owner: m[1] });
  }
  if (text === "the owner's session ended") return t("objects.jobs.reasonSessionEnded");
  if (text === "an internal error stopped the job") return t("objects.jobs.reasonInternal");
  if (text === "the copy is not at the destination") return t("objects.jobs.errorNotCopied");
  if ((m = /^copied, but the source was not deleted: (.*)$/s.exec(text))) {
    return t("objects.jobs.errorSourceKept", { error: jobText(m[1]) });
  }
  if ((m = /^(.+) already exists in ([^ ]+)$/s.exec(text))) {
    return t("objects.jobs.reasonExists", { key: m[1], bucket: m[2] });
  }
  return text;
}

/** Objects and bytes done of the total, with the rate and time left while it runs. */
export function jobProgressText(job: JobView): string {
  const parts = [
    t(job.listed ? "objects.jobs.objectsOf" : "objects.jobs.objectsOfAtLeast", {
      done: job.done_objects,
      total: job.total_objects,
    }),
    t(job.listed ? "objects.jobs.bytesOf" : "objects.jobs.bytesOfAtLeast", {
      done: formatBytes(job.done_bytes),
      total: formatBytes(job.total_bytes),
    }),
  ];
  if (job.skipped_objects) parts.push(t("objects.jobs.skipped", { count: job.skipped_objects }));
  if (job.failed_objects) parts.push(t("objects.jobs.failed", { count: job.failed_objects }));
  if (job.state === "running" && job.objects_per_second > 0) {
    parts.push(t("objects.jobs.rate", {
      objects: Math.round(job.objects_per_second),
      bytes: formatBytes(job.bytes_per_second),
    }));
    if (job.seconds_left !== undefined) {
      parts.push(t("objects.jobs.left", { duration: formatDuration(job.seconds_left) }));
    }
  }
  return parts.join(" · ");
}

function JobLine({ job }: { job: JobView }) {
  const active = job.state === "running" || job.state === "waiting";
  const handled = job.done_objects + job.failed_objects;
  return (
    <li className="py-2 border-b border-base-200 last:border-0" data-job={job.id} data-state={job.state}>
      <div className="flex items-center gap-2">
        <span className="flex-1 min-w-0 wrap-anywhere text-sm">{jobTitle(job)}</span>
        <span className={`badge badge-sm ${TONES[job.state]}`}>{stateLabel(job.state)}</span>
        {active
          ? (
            <button
              type="button"
              className="btn btn-xs"
              onClick={() => jobsApi.cancel(job.id).catch(reportError)}
            >
              {t("common.action.cancel")}
            </button>
          )
          : null}
      </div>
      {active
        ? (
          <progress
            className="progress progress-primary w-full my-1"
            value={handled}
            max={Math.max(job.total_objects, 1)}
            aria-label={t("objects.uploads.progressOf", { name: jobTitle(job) })}
          />
        )
        : null}
      <p className="text-xs text-base-content/70 tabular-nums" data-testid="job-progress">
        {jobProgressText(job)}
      </p>
      {job.reason
        ? <p className="text-xs text-warning-content/80 wrap-anywhere">{jobText(job.reason)}</p>
        : null}
      {job.failures.length
        ? (
          <details className="text-xs mt-1">
            <summary className="cursor-pointer text-error">
              {t("objects.jobs.failures", { count: job.failed_objects })}
            </summary>
            <ul className="max-h-32 overflow-y-auto">
              {job.failures.map((f) => (
                <li key={f.key} className="wrap-anywhere">
                  <span className="font-mono" translate="no">{f.key}</span>: {jobText(f.error)}
                </li>
              ))}
            </ul>
          </details>
        )
        : null}
    </li>
  );
}

/** `onJobEnded` is told when a job on `bucket` that this page saw running ends (the folder may then reload). */
export function JobsPanel({ bucket, onJobEnded }: { bucket: string; onJobEnded: (job: JobView) => void }) {
  const socket = useLiveSocket<JobsMessage>({ limit: 1, reconnect: true });
  const seen = useRef(new Map<string, JobView["state"]>());
  // A job that ended just before the panel opened (a rename started on the object's page) counts too.
  const openedAt = useRef(Date.now() - RECENT_MS);
  useEffect(() => {
    socket.start("/ws/jobs");
    return () => socket.stop();
  }, []);
  const jobs = socket.messages[0]?.jobs ?? [];
  useEffect(() => {
    for (const job of jobs) {
      const before = seen.current.get(job.id);
      const ended = job.state !== "running" && job.state !== "waiting";
      const recent = !before && !!job.finished && Date.parse(job.finished) >= openedAt.current;
      const here = job.source.bucket === bucket || job.destination?.bucket === bucket;
      if (here && ended && (before === "running" || recent)) onJobEnded(job);
      seen.current.set(job.id, job.state);
    }
  }, [jobs]);
  if (jobs.length === 0) return null;
  const running = jobs.filter((j) => j.state === "running").length;
  return (
    <section
      className="card bg-base-100 shadow-sm mb-4 p-3"
      aria-label={t("objects.jobs.title")}
      data-testid="jobs-panel"
    >
      <h2 className="font-bold text-sm mb-1">
        {running ? t("objects.jobs.running", { count: running }) : t("objects.jobs.title")}
      </h2>
      <ul className="max-h-72 overflow-y-auto">{jobs.map((job) => <JobLine key={job.id} job={job} />)}</ul>
    </section>
  );
}
