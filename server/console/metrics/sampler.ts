/**
 * Deck's own Prometheus scraper for the zero-setup dashboard: every `intervalMs` (15 s) it reads the storage
 * server's /minio/v2/metrics/cluster and /node, as a Prometheus job would (labels `job` and `instance`
 * added), keeps the series the widgets read in the bounded history, and saves the history to disk at every
 * coarse step (5 min) and on stop, so a restart keeps the day's trends.
 *
 * `fresh()` gives a sample at most a second old for queries about "now" without storing it, so the
 * history's fixed spacing (and therefore its memory bound) holds however often pages are loaded.
 */
import type { Logger } from "../../lib/http/log.ts";
import { parseExposition } from "./exposition_parse.ts";
import type { LabeledValue, MetricsHistory } from "./history.ts";
import { labelKey } from "./promql/evaluate.ts";

export interface SamplerOptions {
  /** Storage origin, e.g. http://127.0.0.1:9000. */
  storageUrl: string;
  /** Bearer token for the metrics endpoints, or null to scrape without one (public auth type). */
  token: () => Promise<string | null>;
  fetch: typeof fetch;
  history: MetricsHistory;
  jobId: string;
  /** Metric names to keep. */
  keep: Set<string>;
  log: Logger;
  intervalMs?: number;
  timeoutMs?: number;
  /** Epoch milliseconds. */
  now?: () => number;
  /** Where the history is saved; null keeps it in memory only. */
  historyFile?: string | null;
}

export interface SampleSet {
  /** Epoch seconds. */
  time: number;
  samples: LabeledValue[];
  /**
   * Counters that first appear in this set while the previous scrape succeeded without them: they were 0
   * then (a MinIO counter is only exported once it has counted something). Recording that 0 at the previous
   * scrape's time lets rates show the very first requests, as Prometheus' created-timestamp zero ingestion does.
   */
  zeros: { labels: LabeledValue["labels"]; time: number }[];
}

export interface SamplerStatus {
  lastSuccess: number | null;
  lastError: string | null;
  samples: number;
}

const PATHS = ["/minio/v2/metrics/cluster", "/minio/v2/metrics/node"];

export class Sampler {
  readonly intervalMs: number;
  readonly status: SamplerStatus = { lastSuccess: null, lastError: null, samples: 0 };
  latest: SampleSet | null = null;
  #timer: ReturnType<typeof setInterval> | undefined;
  #inflight: Promise<SampleSet | null> | null = null;
  #saving: Promise<void> = Promise.resolve();
  #stopped = false;
  /** The last successful scrape's time and series, to spot counters that appear. */
  #previous: { time: number; keys: Set<string> } | null = null;
  readonly #now: () => number;
  readonly #instance: string;

  constructor(private readonly options: SamplerOptions) {
    this.intervalMs = options.intervalMs ?? 15_000;
    this.#now = options.now ?? Date.now;
    this.#instance = new URL(options.storageUrl).host;
  }

  /** Loads the saved history, takes the first sample at once and then one per interval. */
  async start(): Promise<void> {
    const file = this.options.historyFile;
    if (file) {
      try {
        this.options.history.restore(JSON.parse(await Deno.readTextFile(file)), this.#now() / 1000);
      } catch (error) {
        if (!(error instanceof Deno.errors.NotFound)) {
          this.options.log.warn("metrics history not restored", { file, error: String(error) });
        }
      }
    }
    this.#timer = setInterval(() => void this.#tick(), this.intervalMs);
    void this.#tick();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    await this.#inflight?.catch(() => null);
    await this.#saving;
    await this.#save();
  }

  /** A sample no older than `maxAgeMs`: the latest one, or a new scrape that is not stored. */
  async fresh(maxAgeMs = 1_000): Promise<SampleSet | null> {
    if (this.latest && this.#now() - this.latest.time * 1000 <= maxAgeMs) return this.latest;
    return await this.#scrape();
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    // Shares a scrape already under way (a page asked for a fresh sample); the history takes it once.
    const set = await this.#scrape();
    if (!set || this.#stopped) return;
    if (this.options.history.append(set.time, set.samples, set.zeros)) {
      this.#saving = this.#saving.then(() => this.#save());
    }
  }

  #scrape(): Promise<SampleSet | null> {
    this.#inflight ??= this.#collect().finally(() => (this.#inflight = null));
    return this.#inflight;
  }

  async #collect(): Promise<SampleSet | null> {
    const time = this.#now() / 1000;
    try {
      const token = await this.options.token();
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      const bodies = await Promise.all(PATHS.map(async (path) => {
        const res = await this.options.fetch(this.options.storageUrl + path, {
          headers,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
        });
        const text = await res.text();
        if (!res.ok) {
          throw new Error(
            `${path} answered ${res.status}${
              res.status === 403 ? " (the storage refused the metrics token)" : ""
            }`,
          );
        }
        return text;
      }));
      // The cluster view wins where both endpoints report a metric (process figures appear on both).
      const seen = new Set<string>();
      const samples: LabeledValue[] = [];
      const counters = new Set<string>();
      for (const body of bodies) {
        const names = new Set<string>();
        const parsed = parseExposition(body, this.options.keep);
        parsed.counters.forEach((n) => counters.add(n));
        for (const sample of parsed.samples) {
          const name = sample.labels.__name__;
          if (seen.has(name)) continue;
          names.add(name);
          samples.push({
            labels: { ...sample.labels, job: this.options.jobId, instance: this.#instance },
            value: sample.value,
          });
        }
        names.forEach((n) => seen.add(n));
      }
      const previous = this.#previous;
      const zeros = previous
        ? samples.filter((s) => counters.has(s.labels.__name__) && !previous.keys.has(labelKey(s.labels)))
          .map((s) => ({ labels: s.labels, time: previous.time }))
        : [];
      const set = { time, samples, zeros };
      this.#previous = { time, keys: new Set(samples.map((s) => labelKey(s.labels))) };
      this.latest = set;
      this.status.lastSuccess = this.#now();
      this.status.samples++;
      if (this.status.lastError) {
        this.options.log.info("metrics sampling works again", { storage: this.options.storageUrl });
      }
      this.status.lastError = null;
      return set;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (message !== this.status.lastError) {
        this.options.log.warn("metrics sampling failed", {
          storage: this.options.storageUrl,
          error: message,
        });
      }
      this.status.lastError = message;
      return null;
    }
  }

  async #save(): Promise<void> {
    const file = this.options.historyFile;
    if (!file) return;
    try {
      const dir = file.slice(0, file.lastIndexOf("/"));
      if (dir) await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      const tmp = `${file}.tmp`;
      await Deno.writeTextFile(tmp, JSON.stringify(this.options.history.toJSON()), { mode: 0o600 });
      await Deno.rename(tmp, file);
    } catch (error) {
      this.options.log.warn("metrics history not saved", { file, error: String(error) });
    }
  }
}
