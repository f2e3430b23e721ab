/**
 * Records how each send ended in the version's per-target replication status: FAILED at once, COMPLETED at
 * once in sync mode (the client waits for it) and otherwise in batches, a moment after the send.
 */
import type { Store } from "../fs/store.ts";
import type { ReplicationStatus } from "./rules.ts";
import { changeStatus } from "./status.ts";

/** One version on its way to one target, as the queue holds it. */
export interface VersionSend {
  /** The queue's task id: while a task of this id is queued again, the send's outcome is still open. */
  readonly id: string;
  readonly bucket: string;
  readonly key: string;
  readonly versionId: string;
  readonly arn: string;
}

export class StatusRecorder {
  readonly #store: Store;
  readonly #queued: (taskId: string) => boolean;
  #completions: VersionSend[] = [];
  #flush: Promise<void> | null = null;

  /** `queued` tells whether a task is queued (again): a batched COMPLETED then waits for its new outcome. */
  constructor(store: Store, queued: (taskId: string) => boolean) {
    this.#store = store;
    this.#queued = queued;
  }

  /** Commits a version's status for one target, unless a later run recorded COMPLETED already. */
  record(send: VersionSend, status: ReplicationStatus): Promise<void> {
    return changeStatus(this.#store, send.bucket, send.key, send.versionId, (statuses) => {
      const current = statuses[send.arn];
      if (!current || current === status || (status === "FAILED" && current === "COMPLETED")) return null;
      return { ...statuses, [send.arn]: status };
    });
  }

  /**
   * COMPLETED needs no fsync of its own: lost in a crash, the version is only sent again, which the target
   * takes as the same version. Recorded a moment later all together, the statuses share one log write and
   * one fdatasync with the client writes of that moment instead of costing one each.
   */
  completeLater(send: VersionSend): void {
    this.#completions.push(send);
    this.#flush ??= new Promise<void>((resolve) => setTimeout(resolve, 100)).then(() =>
      this.#flushCompletions()
    );
  }

  /** Resolves when the batch of COMPLETED waiting to be recorded, if any, has been. */
  settled(): Promise<void> {
    return this.#flush ?? Promise.resolve();
  }

  async #flushCompletions(): Promise<void> {
    const batch = this.#completions;
    this.#completions = [];
    this.#flush = null;
    // A version queued again meanwhile (its tags changed) is not complete: its new task records the outcome.
    await Promise.allSettled(
      batch.filter((send) => !this.#queued(send.id)).map((send) => this.record(send, "COMPLETED")),
    );
  }
}
