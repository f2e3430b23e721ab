/**
 * The console-log stream (minio-protocol §3.15): the server's log entries as madmin LogInfo objects, the last
 * `limit` first, then live ones. The history is a fixed-size ring fed by a sink on the log hub, so replaying
 * it costs no disk and its memory is bounded.
 */
import type { Hub } from "./hub.ts";
import type { LogEntry } from "./mod.ts";

/** Entries kept for replay; MinIO's console ring holds this order of magnitude too. */
export const LOG_HISTORY_SIZE = 1000;

export class LogHistory {
  #ring: LogEntry[] = [];
  #next = 0;
  readonly stop: () => void;

  constructor(hub: Hub<LogEntry>, readonly size = LOG_HISTORY_SIZE) {
    this.stop = hub.sink((entry) => this.add(entry));
  }

  add(entry: LogEntry): void {
    if (this.#ring.length < this.size) this.#ring.push(entry);
    else this.#ring[this.#next] = entry;
    this.#next = (this.#next + 1) % this.size;
  }

  /** The newest `count` entries that pass `filter`, oldest first. */
  last(count: number, filter: (entry: LogEntry) => boolean = () => true): LogEntry[] {
    const ordered = this.#ring.length < this.size
      ? this.#ring
      : [...this.#ring.slice(this.#next), ...this.#ring.slice(0, this.#next)];
    const wanted = ordered.filter(filter);
    return count <= 0 ? [] : wanted.slice(-count);
  }
}

/** madmin LogInfo: the entry plus the node and, for plain messages, the console text. */
export interface LogInfo extends LogEntry {
  ConsoleMsg: string;
  node: string;
}

export function logInfoOf(entry: LogEntry, node: string): LogInfo {
  return { ...entry, ConsoleMsg: entry.error ? "" : entry.message ?? "", node };
}

/**
 * `logType` as MinIO reads it (case-insensitive): the legacy kinds minio/application/all, or a level name;
 * anything else means all.
 */
export function logTypeFilter(logType: string): (entry: LogEntry) => boolean {
  const kind = logType.toLowerCase();
  if (["fatal", "warning", "error", "event", "info"].includes(kind)) {
    return (entry) => entry.level.toLowerCase() === kind;
  }
  if (kind === "minio") return (entry) => (entry.errKind ?? "MINIO") === "MINIO";
  if (kind === "application") return (entry) => entry.errKind === "APPLICATION";
  return () => true;
}
