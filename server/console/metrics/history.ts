/**
 * The on-box metrics history: two fixed-size rings of samples, so memory and disk are bounded by
 * construction whatever the storage reports.
 *
 *   fine    every sample, the last hour (240 slots at 15 s)
 *   coarse  one sample per 5 minutes, the last day (288 slots)
 *
 * Each series holds one Float64Array per tier (NaN where it had no value), so a series costs
 * (240 + 288) × 8 = 4,224 bytes plus its labels; at most `maxSeries` series are kept (default 500, about
 * 2.1 MB). New series beyond the cap are dropped and counted; a series with no value left in either ring is
 * forgotten. Only the metric names the widgets read are stored (the sampler filters).
 */
import { labelKey, type Labels, type Series } from "./promql/evaluate.ts";
import { matchesAll } from "./promql/evaluate.ts";
import type { Matcher } from "./promql/parse.ts";

export interface HistoryOptions {
  fineResolution?: number;
  fineSpan?: number;
  coarseResolution?: number;
  coarseSpan?: number;
  maxSeries?: number;
}

export interface LabeledValue {
  labels: Labels;
  value: number;
}

export type TierName = "fine" | "coarse";

/** One ring: times shared by every series, a value array per series. */
class Tier {
  readonly times: Float64Array;
  readonly values = new Map<string, Float64Array>();
  head = 0;
  count = 0;

  constructor(readonly resolution: number, readonly capacity: number) {
    this.times = new Float64Array(capacity);
  }

  /** Latest time stored, or -Infinity. */
  get lastTime(): number {
    return this.count === 0 ? -Infinity : this.times[(this.head - 1 + this.capacity) % this.capacity];
  }

  /** Oldest time stored, or +Infinity. */
  get oldestTime(): number {
    return this.count === 0 ? Infinity : this.times[this.count < this.capacity ? 0 : this.head];
  }

  /** Slot indexes from oldest to newest. */
  *slots(): Generator<number> {
    const start = this.count < this.capacity ? 0 : this.head;
    for (let i = 0; i < this.count; i++) yield (start + i) % this.capacity;
  }

  append(time: number, samples: Map<string, number>, admit: (key: string) => boolean): void {
    const slot = this.head;
    this.times[slot] = time;
    for (const values of this.values.values()) values[slot] = NaN;
    for (const [key, value] of samples) {
      let values = this.values.get(key);
      if (!values) {
        if (!admit(key)) continue;
        values = new Float64Array(this.capacity).fill(NaN);
        this.values.set(key, values);
      }
      values[slot] = value;
    }
    this.head = (this.head + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** Removes series without any value left. */
  sweep(): void {
    for (const [key, values] of this.values) if (values.every(Number.isNaN)) this.values.delete(key);
  }
}

export class MetricsHistory {
  readonly fine: Tier;
  readonly coarse: Tier;
  readonly maxSeries: number;
  /** Labels of every key either tier holds. */
  readonly #labels = new Map<string, Labels>();
  /** New series refused because the cap was reached. */
  droppedSeries = 0;

  constructor(options: HistoryOptions = {}) {
    const fineResolution = options.fineResolution ?? 15;
    const coarseResolution = options.coarseResolution ?? 300;
    this.fine = new Tier(fineResolution, Math.ceil((options.fineSpan ?? 3600) / fineResolution));
    this.coarse = new Tier(coarseResolution, Math.ceil((options.coarseSpan ?? 86400) / coarseResolution));
    this.maxSeries = options.maxSeries ?? 500;
  }

  get seriesCount(): number {
    return this.#labels.size;
  }

  /** Bytes of sample arrays held (labels excluded). */
  get sampleBytes(): number {
    return this.fine.values.size * this.fine.capacity * 8 +
      this.coarse.values.size * this.coarse.capacity * 8;
  }

  #admit = (key: string): boolean => {
    if (this.#labels.has(key) || this.#labels.size < this.maxSeries) return true;
    this.droppedSeries++;
    return false;
  };

  /**
   * Adds one sample set taken at `time` (epoch seconds) to the fine ring, and to the coarse ring when a new
   * coarse period has begun. Returns true when the coarse ring took it (a good moment to save).
   */
  append(time: number, samples: LabeledValue[], zeros: { labels: Labels; time: number }[] = []): boolean {
    if (time <= this.fine.lastTime) return false; // the clock went back: keep the rings ordered
    this.#backfillZeros(zeros);
    const byKey = new Map<string, number>();
    const pending = new Map<string, Labels>();
    for (const s of samples) {
      const key = labelKey(s.labels);
      byKey.set(key, s.value);
      if (!this.#labels.has(key)) pending.set(key, s.labels);
    }
    const admit = (key: string) => {
      if (!this.#admit(key)) return false;
      const labels = pending.get(key);
      if (labels) this.#labels.set(key, labels);
      return true;
    };
    this.fine.append(time, byKey, admit);
    const coarseDue =
      Math.floor(time / this.coarse.resolution) > Math.floor(this.coarse.lastTime / this.coarse.resolution);
    if (coarseDue) {
      this.coarse.append(time, byKey, (key) => this.#labels.has(key));
      this.fine.sweep();
      this.coarse.sweep();
      for (const key of this.#labels.keys()) {
        if (!this.fine.values.has(key) && !this.coarse.values.has(key)) this.#labels.delete(key);
      }
    }
    return coarseDue;
  }

  /** Records 0 for counters that appeared, in the newest slot of each ring taken at their zero's time. */
  #backfillZeros(zeros: { labels: Labels; time: number }[]): void {
    for (const ring of [this.fine, this.coarse]) {
      const slot = (ring.head - 1 + ring.capacity) % ring.capacity;
      for (const zero of zeros) {
        if (ring.count === 0 || ring.times[slot] !== zero.time) continue;
        const key = labelKey(zero.labels);
        if (!this.#labels.has(key) && !this.#admit(key)) continue;
        this.#labels.set(key, zero.labels);
        let values = ring.values.get(key);
        if (!values) ring.values.set(key, values = new Float64Array(ring.capacity).fill(NaN));
        values[slot] = 0;
      }
    }
  }

  /**
   * The ring for a query starting at `from` (seconds): the fine one when it reaches back that far, or when
   * the coarse one holds nothing older (just after a first start).
   */
  tierFor(from: number): TierName {
    const fineOldest = this.fine.oldestTime;
    if (from >= fineOldest - this.fine.resolution) return "fine";
    return this.coarse.oldestTime < fineOldest - this.fine.resolution ? "coarse" : "fine";
  }

  resolution(tier: TierName): number {
    return this[tier].resolution;
  }

  /** Series of `name` matching `matchers` with their points in [from, to] from one ring. */
  select(tier: TierName, name: string, matchers: Matcher[], from: number, to: number): Series[] {
    const ring = this[tier];
    const out: Series[] = [];
    for (const [key, values] of ring.values) {
      const labels = this.#labels.get(key)!;
      if (labels.__name__ !== name || !matchesAll(labels, matchers)) continue;
      const points = [];
      for (const slot of ring.slots()) {
        const t = ring.times[slot];
        if (t >= from && t <= to && !Number.isNaN(values[slot])) points.push({ t, v: values[slot] });
      }
      if (points.length) out.push({ labels, points });
    }
    return out;
  }

  /** Plain-JSON form for the history file: series with values oldest first, NaN as null. */
  toJSON(): HistoryFile {
    const dump = (ring: Tier) => {
      const slots = [...ring.slots()];
      return {
        resolution: ring.resolution,
        times: slots.map((s) => ring.times[s]),
        series: [...ring.values].map(([key, values]) => ({
          labels: this.#labels.get(key)!,
          values: slots.map((s) => (Number.isNaN(values[s]) ? null : values[s])),
        })),
      };
    };
    return { version: 1, fine: dump(this.fine), coarse: dump(this.coarse) };
  }

  /** Reloads a saved history, keeping only what still falls inside each ring's span before `now`. */
  restore(file: HistoryFile, now: number): void {
    if (file?.version !== 1) return;
    const load = (ring: Tier, saved: HistoryFile["fine"]) => {
      if (!saved || saved.resolution !== ring.resolution || !Array.isArray(saved.times)) return;
      const oldest = now - ring.capacity * ring.resolution;
      const series = (saved.series ?? []).filter((s) =>
        s && typeof s.labels?.__name__ === "string" && Array.isArray(s.values)
      );
      saved.times.forEach((time, i) => {
        if (typeof time !== "number" || time < oldest || time > now || time <= ring.lastTime) return;
        const samples = new Map<string, number>();
        for (const s of series) {
          const value = s.values[i];
          if (typeof value !== "number") continue;
          const key = labelKey(s.labels);
          if (!this.#labels.has(key) && this.#admit(key)) this.#labels.set(key, s.labels);
          samples.set(key, value);
        }
        ring.append(time, samples, (key) => this.#labels.has(key));
      });
    };
    load(this.fine, file.fine);
    load(this.coarse, file.coarse);
  }
}

export interface HistoryFile {
  version: 1;
  fine: { resolution: number; times: number[]; series: { labels: Labels; values: (number | null)[] }[] };
  coarse: { resolution: number; times: number[]; series: { labels: Labels; values: (number | null)[] }[] };
}
