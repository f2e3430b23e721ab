/**
 * AMQP target (minio-protocol-2 §1.3, §1.5) through `amqplib`: the exchange is declared with the configured
 * type and flags, then each envelope is published to it with `routing_key`, `delivery_mode` and `mandatory`.
 * Publishing goes through a confirm channel and a batch counts as delivered only once the broker confirmed
 * it (MinIO waits for confirms only with `publisher_confirms=on`; without them "delivered" could be lost).
 * Online means a channel is open (§1.8).
 */
import { Buffer } from "node:buffer";
import amqp from "amqplib";
import {
  BATCH_LINGER_MS,
  checkPasses,
  type Delivery,
  DeliveryError,
  describe,
  isOn,
  type Target,
  type TargetConfig,
  withDeadline,
} from "./target.ts";

interface Link {
  connection: amqp.ChannelModel;
  channel: amqp.ConfirmChannel;
}

export class AmqpTarget implements Target {
  readonly type = "amqp" as const;
  readonly lingerMs = BATCH_LINGER_MS;
  #link: Link | null = null;
  #connecting: Promise<Link> | null = null;
  readonly #secrets: (string | undefined)[];

  constructor(readonly id: string, private readonly config: TargetConfig) {
    const url = new URL(config.url);
    if (url.protocol !== "amqp:" && url.protocol !== "amqps:") {
      throw new Error("the AMQP url must start with amqp:// or amqps://");
    }
    this.#secrets = [decodeURIComponent(url.password), config.url];
  }

  #connect(): Promise<Link> {
    if (this.#link) return Promise.resolve(this.#link);
    this.#connecting ??= (async () => {
      const connection = await amqp.connect(this.config.url, { timeout: 5000 });
      const drop = () => {
        if (this.#link?.connection === connection) this.#link = null;
      };
      connection.on("error", drop);
      connection.on("close", drop);
      try {
        const channel = await connection.createConfirmChannel();
        channel.on("error", drop);
        channel.on("close", drop);
        if (this.config.exchange) {
          await channel.assertExchange(this.config.exchange, this.config.exchange_type || "direct", {
            durable: isOn(this.config.durable),
            autoDelete: isOn(this.config.auto_deleted),
            internal: isOn(this.config.internal),
          });
        }
        this.#link = { connection, channel };
        return this.#link;
      } catch (error) {
        await connection.close().catch(() => {});
        throw error;
      }
    })().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  async #drop(): Promise<void> {
    const link = this.#link;
    this.#link = null;
    await link?.connection.close().catch(() => {});
  }

  async send(batch: Delivery[]): Promise<void> {
    try {
      const { channel } = await this.#connect();
      const mode = Number(this.config.delivery_mode) || undefined;
      for (const { line } of batch) {
        channel.publish(this.config.exchange ?? "", this.config.routing_key ?? "", Buffer.from(line), {
          contentType: "application/json",
          deliveryMode: mode,
          mandatory: isOn(this.config.mandatory),
        });
      }
      await withDeadline(channel.waitForConfirms(), 10_000, "broker confirms");
    } catch (error) {
      await this.#drop();
      throw new DeliveryError(`amqp: ${describe(error, this.#secrets)}`, 0);
    }
  }

  isActive(): Promise<boolean> {
    return checkPasses(this.#connect());
  }

  async close(): Promise<void> {
    await this.#drop();
  }
}
