/**
 * A remote target's bandwidth limit (`bandwidthlimit`, bytes per second, minio-protocol §3.11): one token
 * bucket per target shared by every transfer to it, holding at most one second of bytes.
 */
export class BandwidthLimit {
  #available: number;
  #last: number;
  #sent = 0;

  constructor(
    readonly bytesPerSecond: number,
    private readonly clock: () => number = performance.now.bind(performance),
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((resolve) => setTimeout(resolve, ms)),
  ) {
    this.#available = bytesPerSecond;
    this.#last = clock();
  }

  /** Bytes sent through this limit so far. */
  get sent(): number {
    return this.#sent;
  }

  /** Waits until `bytes` may go. */
  async take(bytes: number): Promise<void> {
    this.#sent += bytes;
    if (this.bytesPerSecond <= 0) return;
    this.#refill();
    this.#available -= bytes;
    if (this.#available >= 0) return;
    await this.sleep((-this.#available / this.bytesPerSecond) * 1000);
  }

  #refill(): void {
    const now = this.clock();
    this.#available = Math.min(
      this.bytesPerSecond,
      this.#available + ((now - this.#last) / 1000) * this.bytesPerSecond,
    );
    this.#last = now;
  }

  /** The stream passed through this limit: each piece waits for its share. */
  throttle(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    return body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform: async (chunk, controller) => {
          await this.take(chunk.length);
          controller.enqueue(chunk);
        },
      }),
    );
  }
}
