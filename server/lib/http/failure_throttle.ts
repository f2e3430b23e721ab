/**
 * Slows down guessing: after a few failures for one key (an address, or an access key and an address), each
 * further attempt must wait twice as long as the previous one (capped); attempts that come too early are
 * refused before any secret is checked. A success clears the key's record. Memory is bounded (least recently
 * failed keys are forgotten first). Used by console sign-in and by the embedded storage's signature checks.
 */

export interface ThrottleRules {
  /** Failures allowed before any wait. */
  freeFailures: number;
  /** Wait after the first failure beyond the free ones; doubles with each further failure. */
  firstDelayMs: number;
  maxDelayMs: number;
  /** Keys remembered at most. */
  maxTracked?: number;
}

interface FailureRecord {
  failures: number;
  lastFailure: number;
}

export class FailureThrottle {
  readonly #records = new Map<string, FailureRecord>();
  constructor(private readonly rules: ThrottleRules, private readonly now: () => number = Date.now) {}

  /** Milliseconds the key must still wait before its next attempt (0 = may try now). */
  waitFor(key: string): number {
    const record = this.#records.get(key);
    if (!record || record.failures < this.rules.freeFailures) return 0;
    const delay = Math.min(
      this.rules.maxDelayMs,
      this.rules.firstDelayMs * 2 ** (record.failures - this.rules.freeFailures),
    );
    return Math.max(0, record.lastFailure + delay - this.now());
  }

  recordFailure(key: string): void {
    const record = this.#records.get(key) ?? { failures: 0, lastFailure: 0 };
    record.failures++;
    record.lastFailure = this.now();
    this.#records.delete(key);
    this.#records.set(key, record);
    if (this.#records.size > (this.rules.maxTracked ?? 10_000)) {
      this.#records.delete(this.#records.keys().next().value as string);
    }
  }

  recordSuccess(key: string): void {
    this.#records.delete(key);
  }
}
