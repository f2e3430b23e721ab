/**
 * The lifecycle scanner: every `intervalMs` it walks each bucket that has lifecycle rules, key by key, and
 * carries out what is due (rules.ts, actions.ts), then aborts incomplete multipart uploads past their rule's
 * days. A scan never starves clients: it works in slices of `sliceMs` (1 ms), yields to the event loop after each,
 * and rests `pause` times as long as the slice took (so it uses at most 1/(1+pause) of the thread, actions'
 * I/O included). Counters of what it did are kept for the metrics endpoint (metrics.ts).
 */
import type { Logger } from "../../lib/http/log.ts";
import { type LifecycleRule, parseLifecycleXml } from "../../lib/s3/ops/lifecycle.ts";
import { abortUpload, listUploads } from "../fs/multipart.ts";
import type { Store } from "../fs/store.ts";
import type { EventObject } from "../events/records.ts";
import { type TierBackends, tierProblem } from "../tiers/remote.ts";
import { expireCurrent, expireVersion, transitionVersion } from "./actions.ts";
import { DAY_MS, dueActions, type LifecycleAction, uploadAbortDue } from "./rules.ts";
import type { BucketState } from "../core/records.ts";
import type { TierStore } from "../tiers/store.ts";

export interface LifecycleSettings {
  /** Time between the end of one scan and the start of the next. */
  intervalMs: number;
  /** How long a lifecycle "day" lasts (24 h; tests shorten it). */
  dayMs?: number;
  /** Work slice between yields (default 1 ms). */
  sliceMs?: number;
  /** Rest after each slice, as a multiple of the slice's duration (default 1). */
  pause?: number;
}

/** Publishes a bucket event for something a scan did (`s3:ObjectRemoved:*`, `s3:ObjectTransition:*`). */
export type LifecycleEvents = (eventName: string, object: EventObject) => void;

export interface LifecycleStats {
  scans: number;
  objectsScanned: number;
  versionsScanned: number;
  expired: number;
  deleteMarkersRemoved: number;
  transitioned: number;
  uploadsAborted: number;
  failures: number;
  lastScanSeconds: number;
}

/** A timer even for no rest at all: Deno runs `setImmediate` callbacks without polling the network. */
const rest = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Measures work and rests in proportion, checking the clock only every few calls. */
class Pacer {
  #sliceStart = performance.now();
  #calls = 0;
  constructor(private readonly sliceMs: number, private readonly pause: number) {}

  async tick(force = false): Promise<void> {
    if (!force && ++this.#calls % 32 !== 0) return;
    const worked = performance.now() - this.#sliceStart;
    if (worked < this.sliceMs && !force) return;
    await rest(Math.floor(worked * this.pause));
    this.#sliceStart = performance.now();
  }
}

export class LifecycleScanner {
  readonly stats: LifecycleStats = {
    scans: 0,
    objectsScanned: 0,
    versionsScanned: 0,
    expired: 0,
    deleteMarkersRemoved: 0,
    transitioned: 0,
    uploadsAborted: 0,
    failures: 0,
    lastScanSeconds: 0,
  };
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  /** Ends an upload to a tier under way when the server closes. */
  readonly #abort = new AbortController();
  #running: Promise<void> | null = null;
  readonly #dayMs: number;
  /** Each bucket's rules, parsed once per version of its document. */
  readonly #parsed = new Map<string, { text: string; rules: LifecycleRule[] }>();

  constructor(
    private readonly store: Store,
    private readonly backends: TierBackends,
    private readonly tiers: TierStore,
    private readonly settings: LifecycleSettings,
    private readonly now: () => number = Date.now,
    private readonly log?: Logger,
    private readonly events: LifecycleEvents = () => {},
  ) {
    this.#dayMs = settings.dayMs ?? DAY_MS;
  }

  start(): void {
    if (this.settings.intervalMs > 0) this.#schedule();
  }

  #schedule(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#running = this.scan().catch((error) =>
        this.log?.warn("lifecycle scan failed", { error: String(error) })
      ).finally(() => {
        this.#running = null;
        this.#schedule();
      });
    }, this.settings.intervalMs);
  }

  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#abort.abort();
    await this.#running;
  }

  /** One pass over every bucket with lifecycle rules. */
  async scan(): Promise<void> {
    const started = performance.now();
    const pacer = new Pacer(this.settings.sliceMs ?? 1, this.settings.pause ?? 1);
    await this.backends.retryPending();
    for (const state of [...this.store.buckets.values()]) {
      if (this.#closed) return;
      if (this.store.buckets.get(state.name) !== state) continue;
      const rules = await this.rules(state.name);
      if (rules.length === 0) continue;
      await this.#scanBucket(state, rules, pacer);
      if (rules.some((r) => r.abortIncompleteMultipartUploadDays !== undefined)) {
        await this.#abortUploads(state, rules, pacer);
      }
    }
    this.stats.scans++;
    this.stats.lastScanSeconds = (performance.now() - started) / 1000;
  }

  /** How long a lifecycle day lasts here. */
  get dayMs(): number {
    return this.#dayMs;
  }

  /** A bucket's enabled rules (none when it has no configuration or no longer exists). */
  async rules(bucket: string): Promise<LifecycleRule[]> {
    const text = await this.store.getDocument(bucket, "lifecycle.xml").catch(() => undefined);
    if (!text) return [];
    const cached = this.#parsed.get(bucket);
    if (cached?.text === text) return cached.rules;
    let rules: LifecycleRule[] = [];
    try {
      rules = parseLifecycleXml(text).filter((r) => r.status === "Enabled");
    } catch (error) {
      // Validated when stored; a document damaged on disk must not stop the other buckets' scans.
      this.log?.warn("a bucket's lifecycle configuration cannot be read", { bucket, error: String(error) });
    }
    this.#parsed.set(bucket, { text, rules });
    return rules;
  }

  async #scanBucket(state: BucketState, rules: LifecycleRule[], pacer: Pacer): Promise<void> {
    for (const key of state.keys.slice()) {
      if (this.#closed || this.store.buckets.get(state.name) !== state) return;
      const record = state.objects.get(key);
      if (!record) continue;
      this.stats.objectsScanned++;
      this.stats.versionsScanned += record.versions.length;
      const actions = dueActions(record, rules, this.now(), this.#dayMs);
      for (const action of actions) {
        await this.#act(state, key, action);
        await pacer.tick(true);
      }
      await pacer.tick();
    }
  }

  async #act(state: BucketState, key: string, action: LifecycleAction): Promise<void> {
    const now = new Date(this.now());
    const event = (name: string, versionId?: string) =>
      this.events(name, {
        bucket: state.name,
        key,
        version: action.version,
        versionId,
        versioned: !!state.meta.versioning,
      });
    try {
      if (action.kind === "expire-current") {
        const outcome = await expireCurrent(this.store, state, key, action.version, now);
        if (!outcome) return;
        this.stats.expired++;
        if (outcome.deleteMarker) event("s3:ObjectRemoved:DeleteMarkerCreated", outcome.versionId);
        else event("s3:ObjectRemoved:Delete", action.version.versionId);
      } else if (action.kind === "expire-version") {
        if (!(await expireVersion(this.store, state, key, action.version, action.reason, now))) return;
        if (action.reason === "delete-marker") this.stats.deleteMarkersRemoved++;
        else this.stats.expired++;
        event("s3:ObjectRemoved:Delete", action.version.versionId);
      } else {
        const problem = tierProblem(this.tiers.tiers.find((t) => t.Name === action.tier), action.tier);
        if (problem) throw new Error(problem);
        if (
          !(await transitionVersion(
            this.store,
            this.backends,
            state,
            key,
            action.version,
            action.tier,
            this.#abort.signal,
          ))
        ) return;
        this.stats.transitioned++;
        event("s3:ObjectTransition:Complete", action.version.versionId);
      }
    } catch (error) {
      // Object lock, an unreachable tier: the version stays as it is and the next scan tries again.
      this.stats.failures++;
      if (action.kind === "transition") event("s3:ObjectTransition:Failed", action.version.versionId);
      this.log?.debug("lifecycle action not carried out", {
        bucket: state.name,
        key,
        action: action.kind,
        error: String(error),
      });
    }
  }

  async #abortUploads(state: BucketState, rules: LifecycleRule[], pacer: Pacer): Promise<void> {
    for (const upload of await listUploads(this.store, state.name, "")) {
      if (this.#closed) return;
      if (!uploadAbortDue(rules, upload.key, Date.parse(upload.initiated), this.now(), this.#dayMs)) continue;
      try {
        await abortUpload(this.store, { bucket: state.name, key: upload.key, uploadId: upload.uploadId });
        this.stats.uploadsAborted++;
      } catch {
        // completed or aborted meanwhile
      }
      await pacer.tick(true);
    }
  }
}
