/**
 * MQTT target (minio-protocol-2 §1.3) through `mqtt`: each envelope is published to `topic` with the
 * configured QoS, retain off. The client does not reconnect or queue on its own (the runner and the queue
 * store do that), so a lost broker fails the send instead of buffering it in memory. Online means the
 * connection is open (§1.8).
 */
import mqtt from "mqtt";
import { brokerUrl } from "./addresses.ts";
import {
  checkPasses,
  type Delivery,
  DeliveryError,
  describe,
  durationSeconds,
  type Target,
  type TargetConfig,
  withDeadline,
} from "./target.ts";

export class MqttTarget implements Target {
  readonly type = "mqtt" as const;
  readonly #url: string;
  readonly #qos: 0 | 1 | 2;
  #client: mqtt.MqttClient | null = null;
  #connecting: Promise<mqtt.MqttClient> | null = null;

  constructor(readonly id: string, private readonly config: TargetConfig) {
    this.#url = brokerUrl(config.broker);
    const qos = Number(config.qos || 0);
    if (qos !== 0 && qos !== 1 && qos !== 2) throw new Error("qos must be 0, 1 or 2");
    this.#qos = qos;
  }

  #connect(): Promise<mqtt.MqttClient> {
    if (this.#client?.connected) return Promise.resolve(this.#client);
    this.#connecting ??= (async () => {
      await this.#drop();
      const client = await mqtt.connectAsync(this.#url, {
        username: this.config.username || undefined,
        password: this.config.password || undefined,
        keepalive: durationSeconds(this.config.keep_alive_interval) || 60,
        connectTimeout: 5000,
        reconnectPeriod: 0,
        clientId: `deck-${this.id}-${crypto.randomUUID().slice(0, 8)}`,
      }, false);
      client.on("error", () => {});
      this.#client = client;
      return client;
    })().finally(() => (this.#connecting = null));
    return this.#connecting;
  }

  async #drop(): Promise<void> {
    const client = this.#client;
    this.#client = null;
    await client?.endAsync(true).catch(() => {});
  }

  async send(batch: Delivery[]): Promise<void> {
    for (let i = 0; i < batch.length; i++) {
      try {
        const client = await this.#connect();
        await withDeadline(
          client.publishAsync(this.config.topic, batch[i].line, { qos: this.#qos, retain: false }),
          10_000,
          "publish",
        );
      } catch (error) {
        await this.#drop();
        throw new DeliveryError(`mqtt: ${describe(error, [this.config.password])}`, i);
      }
    }
  }

  isActive(): Promise<boolean> {
    return checkPasses(this.#connect());
  }

  async close(): Promise<void> {
    await this.#drop();
  }
}
