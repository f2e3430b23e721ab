/**
 * Slows down password guessing: after a few failed sign-ins from one address, each further attempt must
 * wait twice as long as the previous one (capped), and attempts that come too early get 429 without touching
 * the storage server. A success clears the address's record. Memory is bounded.
 */

const FREE_FAILURES = 3;
const MAX_DELAY_MS = 5 * 60_000;
const MAX_TRACKED = 10_000;

interface FailureRecord {
  failures: number;
  lastFailure: number;
}

export class LoginThrottle {
  readonly #records = new Map<string, FailureRecord>();
  constructor(private readonly now: () => number = Date.now) {}

  /** Milliseconds the address must still wait before its next attempt (0 = may try now). */
  waitFor(address: string): number {
    const record = this.#records.get(address);
    if (!record || record.failures < FREE_FAILURES) return 0;
    const delay = Math.min(MAX_DELAY_MS, 1000 * 2 ** (record.failures - FREE_FAILURES));
    return Math.max(0, record.lastFailure + delay - this.now());
  }

  recordFailure(address: string): void {
    const record = this.#records.get(address) ?? { failures: 0, lastFailure: 0 };
    record.failures++;
    record.lastFailure = this.now();
    this.#records.delete(address);
    this.#records.set(address, record);
    if (this.#records.size > MAX_TRACKED) this.#records.delete(this.#records.keys().next().value as string);
  }

  recordSuccess(address: string): void {
    this.#records.delete(address);
  }
}
