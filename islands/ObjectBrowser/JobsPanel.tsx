/**
 * The jobs panel of the object browser (issue 28): the user's running and finished jobs with their progress
 * (objects and bytes done of the total, "at least" while the listing runs), rate, time left and failures,
 * and Cancel. Updates come over /ws/jobs, at most twice a second; nothing polls.
 */
import { useEffect, useRef } from "react";
import type { JobsMessage, JobView } from "../../server/lib/contract/jobs.ts";
import { jobsApi } from "../lib/api/jobs.ts";
import { formatBytes, formatDuration, formatNumber } from "../lib/format.ts";
import { useLiveSocket } from "../lib/live_socket.ts";
import { reportError } from "../lib/use_list.ts";

/** How long before the panel opened a job may have ended and still reload the folder. */
const RECENT_MS = 5000;

const VERBS: Record<JobView["kind"], string> = { copy: "Copy", move: "Move", delete: "Delete" };

/** "Move 3 items from photos/2024/ to archive/2024/" (a rename reads as one). */
export function jobTitle(job: JobView): string {
  const { source, destination } = job;
  const what = source.names.length === 1 ? source.names[0] : `${formatNumber(source.names.length)} items`;
  const rename = job.kind === "move" && source.names.length === 1 && source.base === source.names[0] &&
    destination?.bucket === source.bucket;
  if (rename) return `Rename ${source.bucket}/${source.names[0]} to ${destination!.prefix}`;
  const from = `${VERBS[job.kind]} ${what} from ${source.bucket}`;
  return destination ? `${from} to ${destination.bucket}/${destination.prefix}` : from;
}

const STATES: Record<JobView["state"], { label: string; tone: string }> = {
  running: { label: "Running", tone: "badge-info" },
  waiting: { label: "Waiting", tone: "badge-warning" },
  done: { label: "Done", tone: "badge-success" },
  cancelled: { label: "Cancelled", tone: "badge-ghost" },
  stopped: { label: "Stopped", tone: "badge-error" },
};

/** Objects and bytes done of the total, with the rate and time left while it runs. */
export function jobProgressText(job: JobView): string {
  const of = job.listed ? "of" : "of at least";
  const parts = [
    `${formatNumber(job.done_objects)} ${of} ${formatNumber(job.total_objects)} objects`,
    `${formatBytes(job.done_bytes)} ${of} ${formatBytes(job.total_bytes)}`,
  ];
  if (job.skipped_objects) parts.push(`${formatNumber(job.skipped_objects)} skipped`);
  if (job.failed_objects) parts.push(`${formatNumber(job.failed_objects)} failed`);
  if (job.state === "running" && job.objects_per_second > 0) {
    parts.push(`${formatNumber(job.objects_per_second)} objects/s, ${formatBytes(job.bytes_per_second)}/s`);
    if (job.seconds_left !== undefined) parts.push(`about ${formatDuration(job.seconds_left)} left`);
  }
  return parts.join(" · ");
}

function JobLine({ job }: { job: JobView }) {
  const state = STATES[job.state];
  const active = job.state === "running" || job.state === "waiting";
  const handled = job.done_objects + job.failed_objects;
  return (
    <li className="py-2 border-b border-base-200 last:border-0" data-job={job.id} data-state={job.state}>
      <div className="flex items-center gap-2">
        <span className="flex-1 min-w-0 wrap-anywhere text-sm">{jobTitle(job)}</span>
        <span className={`badge badge-sm ${state.tone}`}>{state.label}</span>
        {active
          ? (
            <button
              type="button"
              className="btn btn-xs"
              onClick={() => jobsApi.cancel(job.id).catch(reportError)}
            >
              Cancel
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
            aria-label={`Progress of ${jobTitle(job)}`}
          />
        )
        : null}
      <p className="text-xs text-base-content/70 tabular-nums" data-testid="job-progress">
        {jobProgressText(job)}
      </p>
      {job.reason ? <p className="text-xs text-warning-content/80 wrap-anywhere">{job.reason}</p> : null}
      {job.failures.length
        ? (
          <details className="text-xs mt-1">
            <summary className="cursor-pointer text-error">
              Failures ({formatNumber(job.failed_objects)})
            </summary>
            <ul className="max-h-32 overflow-y-auto">
              {job.failures.map((f) => (
                <li key={f.key} className="wrap-anywhere">
                  <span className="font-mono">{f.key}</span>: {f.error}
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
    <section className="card bg-base-100 shadow-sm mb-4 p-3" aria-label="Jobs" data-testid="jobs-panel">
      <h2 className="font-bold text-sm mb-1">{running ? `Jobs: ${running} running` : "Jobs"}</h2>
      <ul className="max-h-72 overflow-y-auto">{jobs.map((job) => <JobLine key={job.id} job={job} />)}</ul>
    </section>
  );
}
