/**
 * NATS target (minio-protocol-2 §1.3) through `nats`: each envelope is published to `subject`; a batch
 * counts as delivered once a flush round trip shows the server has it. Plain NATS only: NATS Streaming
 * (`streaming=on`) is refused when the target is configured. Online means the connection is up (§1.8).
 */
import { connect, type NatsConnection } from "nats";
import {
  BATCH_LINGER_MS,
  checkPasses,
  type Delivery,
  DeliveryError,
  describe,
  durationSeconds,
  isOn,
  type Target,
  type TargetConfig,
  withDeadline,
} from "./target.ts";

const encoder = new TextEncoder();

export class NatsTarget implements Target {
  readonly type = "nats" as const;
  readonly lingerMs = BATCH_LINGER_MS;
  #conn: NatsConnection | null = null;
  #connecting: Promise<NatsConnection> | null = null;

  constructor(readonly id: string, private readonly config: TargetConfig) {
    if (isOn(config.streaming)) {
      throw new Error("NATS Streaming is not supported by this server: set streaming=off");
    }
  }

  #connect(): Promise<NatsConnection> {
    if (this.#conn && !this.#conn.isClosed()) return Promise.resolve(this.#conn);
    this.#connecting ??= (async () => {
      const tls = isOn(this.config.tls) || this.config.client_cert || this.config.cert_authority
        ? {
          caFile: this.config.cert_authority || undefined,
          certFile: this.config.client_cert || undefined,
          keyFile: this.config.client_key || undefined,
        }
        : undefined;
      const conn = await connect({
        servers: this.config.address,
        user: this.config.username || undefined,
        pass: this.config.password || undefined,
        token: this.config.token || undefined,
        tls,
        pingInterval: (durationSeconds(this.config.ping_interval) || 120) * 1000,
        timeout: 5000,
        reconnect: false,
        name: `deck-notify-${this.id}`,
      });
      this.#conn = conn;
      return conn;
    })().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  async #drop(): Promise<void> {
    const conn = this.#conn;
    this.#conn = null;
    await conn?.close().catch(() => {});
  }

  async send(batch: Delivery[]): Promise<void> {
    try {
      const conn = await this.#connect();
      for (const { line } of batch) conn.publish(this.config.subject, encoder.encode(line));
      await withDeadline(conn.flush(), 10_000, "flush");
    } catch (error) {
      await this.#drop();
      throw new DeliveryError(`nats: ${describe(error, [this.config.password, this.config.token])}`, 0);
    }
  }

  isActive(): Promise<boolean> {
    return checkPasses(
      this.#connect().then((conn) => {
        if (conn.isClosed()) throw new Error("connection closed");
      }),
    );
  }

  async close(): Promise<void> {
    await this.#drop();
  }
}
