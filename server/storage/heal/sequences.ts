/**
 * Heal sequences as the admin heal API runs them (minio-protocol §3.13): one per path (bucket/prefix),
 * started with HealOpts, polled with its client token (each poll takes the results produced since the last),
 * force-started or force-stopped. The work itself is healScope (verify.ts).
 *
 * Bounded: a sequence holds at most MAX_UNCONSUMED results; past that it pauses until a poll takes them,
 * and a sequence nobody polls for UNCONSUMED_TIMEOUT_MS stops. Ended sequences are forgotten after
 * KEEP_ENDED_MS, as MinIO keeps their state for ten minutes.
 */
import type { Store } from "../fs/store.ts";
import type { InternalAuditEvent } from "../logging/audit_entry.ts";
import { type HealFinding, healScope } from "./verify.ts";
import type { DriveState } from "./version_check.ts";
import { StoreError } from "../core/errors.ts";

export const MAX_UNCONSUMED = 1000;
const UNCONSUMED_TIMEOUT_MS = 10 * 60_000;
const KEEP_ENDED_MS = 10 * 60_000;

/** madmin HealOpts (the JSON body of a start). */
export interface HealOpts {
  recursive: boolean;
  dryRun: boolean;
  remove: boolean;
  recreate: boolean;
  scanMode: number;
  updateParity: boolean;
  nolock: boolean;
}

export interface HealStartSuccess {
  clientToken: string;
  clientAddress: string;
  startTime: string;
}

export interface HealDriveInfo {
  uuid: string;
  endpoint: string;
  state: DriveState;
}

export interface HealResultItem {
  resultId: number;
  type: HealFinding["type"];
  bucket: string;
  object: string;
  versionId: string;
  detail: string;
  diskCount: number;
  setCount: number;
  before: { drives: HealDriveInfo[] };
  after: { drives: HealDriveInfo[] };
  objectSize: number;
}

export type HealSummary = "not started" | "running" | "stopped" | "finished";

export interface HealTaskStatus {
  summary: HealSummary;
  detail: string;
  startTime: string;
  settings: HealOpts;
  items: HealResultItem[];
}

interface Sequence {
  path: string;
  bucket: string;
  prefix: string;
  token: string;
  clientAddress: string;
  startTime: Date;
  settings: HealOpts;
  summary: HealSummary;
  detail: string;
  items: HealResultItem[];
  nextId: number;
  stop: AbortController;
  endedAt: number | null;
  /** Resolves the scan's wait for room in the result buffer. */
  wake: (() => void) | null;
}

const fail = (code: string, message: string, status = 400) => new StoreError(code, message, status);

export class HealSequences {
  readonly #sequences = new Map<string, Sequence>();
  /** Items scanned by every heal since start (BackgroundHealStatus ScannedItemsCount). */
  #scanned = 0;

  constructor(
    private readonly store: Store,
    private readonly drive: { uuid: string; endpoint: string },
    private readonly now: () => number = Date.now,
    /** Told of each dangling version heal removed (the audit targets record it as MinIO does). */
    private readonly audit: (event: InternalAuditEvent) => void = () => {},
  ) {}

  /** Starts a sequence (or returns the running one's start while it has results waiting). */
  start(
    bucket: string,
    prefix: string,
    settings: HealOpts,
    options: { forceStart: boolean; clientAddress: string },
  ): HealStartSuccess {
    this.#prune();
    if (prefix && !bucket) {
      throw fail(
        "XMinioHealMissingBucket",
        "A heal start request with a non-empty object-prefix parameter requires a bucket to be specified.",
      );
    }
    if (bucket && !this.store.buckets.has(bucket) && !this.#onDisk(bucket)) {
      throw fail("NoSuchBucket", "The specified bucket does not exist", 404);
    }
    const path = healPath(bucket, prefix);
    const existing = this.#sequences.get(path);
    if (existing && existing.endedAt === null) {
      if (!options.forceStart) {
        if (existing.items.length > 0) return startOf(existing);
        throw fail(
          "XMinioHealAlreadyRunning",
          `Heal is already running on the given path (use force-start option to stop and start afresh). The heal was started by IP ${existing.clientAddress} at ${existing.startTime.toUTCString()}, token is ${existing.token}`,
        );
      }
      this.#end(existing, "stopped", "stopped by a force-start");
    }
    for (const other of this.#sequences.values()) {
      if (other.endedAt === null && other.path !== path && overlaps(other, { bucket, prefix })) {
        throw fail(
          "XMinioHealOverlappingPaths",
          `The provided heal sequence path overlaps with an existing heal path: ${other.path || "/"}`,
        );
      }
    }
    const sequence: Sequence = {
      path,
      bucket,
      prefix,
      token: crypto.randomUUID(),
      clientAddress: options.clientAddress,
      startTime: new Date(this.now()),
      settings,
      summary: "running",
      detail: "",
      items: [],
      nextId: 0,
      stop: new AbortController(),
      endedAt: null,
      wake: null,
    };
    this.#sequences.set(path, sequence);
    this.#run(sequence);
    return startOf(sequence);
  }

  /** Stops the sequence on the path; the token is "unknown" when none ran. */
  stop(bucket: string, prefix: string, clientAddress: string): HealStartSuccess {
    const sequence = this.#sequences.get(healPath(bucket, prefix));
    if (!sequence || sequence.endedAt !== null) {
      return { clientToken: "unknown", clientAddress, startTime: new Date(this.now()).toISOString() };
    }
    this.#end(sequence, "stopped", "stopped by a force-stop");
    return startOf(sequence);
  }

  /** The results since the last poll; a path with no sequence left reads as finished. */
  status(bucket: string, prefix: string, token: string): HealTaskStatus {
    this.#prune();
    const sequence = this.#sequences.get(healPath(bucket, prefix));
    if (!sequence) {
      return {
        summary: "finished",
        detail: "",
        startTime: new Date(this.now()).toISOString(),
        settings: defaultOpts(),
        items: [],
      };
    }
    if (sequence.token !== token) throw fail("XMinioHealInvalidClientToken", "Client token mismatch");
    const items = sequence.items;
    sequence.items = [];
    sequence.wake?.();
    return {
      summary: sequence.summary,
      detail: sequence.detail,
      startTime: sequence.startTime.toISOString(),
      settings: sequence.settings,
      items,
    };
  }

  /** BackgroundHealStatus (minio-protocol §3.13): one set of one drive. */
  background() {
    const running = [...this.#sequences.values()].some((s) => s.endedAt === null);
    return {
      offline_nodes: [],
      ScannedItemsCount: this.#scanned,
      HealDisks: [],
      sets: [{
        id: "0",
        pool_index: 0,
        set_index: 0,
        heal_status: running ? "running" : "finished",
        heal_priority: "",
        total_objects: 0,
        disks: [{ endpoint: this.drive.endpoint, uuid: this.drive.uuid, state: "ok" }],
      }],
      mrf: {},
      sc_parity: { STANDARD: 0 },
    };
  }

  /** Stops everything (server shutdown). */
  close(): void {
    for (const sequence of this.#sequences.values()) {
      if (sequence.endedAt === null) this.#end(sequence, "stopped", "the server is shutting down");
    }
  }

  #onDisk(bucket: string): boolean {
    try {
      return Deno.statSync(this.store.bucketDir(bucket)).isDirectory;
    } catch {
      return false;
    }
  }

  async #run(sequence: Sequence): Promise<void> {
    const signal = sequence.stop.signal;
    try {
      const { recursive, dryRun, remove } = sequence.settings;
      const scope = { bucket: sequence.bucket, prefix: sequence.prefix, recursive, dryRun, remove };
      for await (const finding of healScope(this.store, scope, signal)) {
        if (signal.aborted) return;
        this.#scanned++;
        if (finding.removed) {
          this.audit({
            event: "DeleteDanglingObject",
            bucket: finding.bucket,
            object: finding.object,
            versionId: finding.versionId || undefined,
            error: finding.detail,
          });
        }
        sequence.items.push(this.#item(finding, ++sequence.nextId));
        if (sequence.items.length >= MAX_UNCONSUMED) await this.#waitForRoom(sequence);
      }
      if (!signal.aborted) this.#end(sequence, "finished", "");
    } catch (error) {
      if (!signal.aborted) {
        this.#end(sequence, "stopped", error instanceof Error ? error.message : String(error));
      }
    }
  }

  async #waitForRoom(sequence: Sequence): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      sequence.wake = resolve;
      sequence.stop.signal.addEventListener("abort", () => resolve(), { once: true });
      timer = setTimeout(() => {
        this.#end(sequence, "stopped", "stopped: its results were not collected for 10 minutes");
        resolve();
      }, UNCONSUMED_TIMEOUT_MS);
    });
    clearTimeout(timer);
    sequence.wake = null;
  }

  #end(sequence: Sequence, summary: HealSummary, detail: string): void {
    if (sequence.endedAt !== null) return;
    sequence.summary = summary;
    sequence.detail = detail;
    sequence.endedAt = this.now();
    sequence.stop.abort();
    sequence.wake?.();
  }

  #item(finding: HealFinding, resultId: number): HealResultItem {
    const drives = (state: DriveState) => [{ uuid: this.drive.uuid, endpoint: this.drive.endpoint, state }];
    return {
      resultId,
      type: finding.type,
      bucket: finding.bucket,
      object: finding.object,
      versionId: finding.versionId,
      detail: finding.detail,
      diskCount: 1,
      setCount: 1,
      before: { drives: drives(finding.before) },
      after: { drives: drives(finding.after) },
      objectSize: finding.objectSize,
    };
  }

  /** Ended sequences whose results were taken (or that ended long ago) go away. */
  #prune(): void {
    const now = this.now();
    for (const [path, sequence] of this.#sequences) {
      if (
        sequence.endedAt !== null &&
        (sequence.items.length === 0 && now - sequence.endedAt > 1000 ||
          now - sequence.endedAt > KEEP_ENDED_MS)
      ) this.#sequences.delete(path);
    }
  }
}

/** Heals of different buckets never overlap; within a bucket, one prefix containing the other does. */
function overlaps(a: { bucket: string; prefix: string }, b: { bucket: string; prefix: string }): boolean {
  if (!a.bucket || !b.bucket) return true;
  return a.bucket === b.bucket && (a.prefix.startsWith(b.prefix) || b.prefix.startsWith(a.prefix));
}

export const healPath = (bucket: string, prefix: string) => (prefix ? `${bucket}/${prefix}` : bucket);

function startOf(sequence: Sequence): HealStartSuccess {
  return {
    clientToken: sequence.token,
    clientAddress: sequence.clientAddress,
    startTime: sequence.startTime.toISOString(),
  };
}

export function defaultOpts(): HealOpts {
  return {
    recursive: false,
    dryRun: false,
    remove: false,
    recreate: false,
    scanMode: 1,
    updateParity: false,
    nolock: false,
  };
}
