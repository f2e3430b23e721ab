/**
 * Redis target (minio-protocol-2 §1.7) through `redis`: namespace keeps a hash `HSET <key> <bucket>/<object>`
 * (HDEL on removal), access appends `[{"Event":[record],"EventTime":…}]` to a list with RPUSH. The key's
 * type is checked once per connection (a key of another type fails the target, as MinIO's does). A batch is
 * one MULTI/EXEC. The connection is ours to manage: no offline queue, so a lost server fails fast.
 */
import { createClient } from "redis";
import {
  BATCH_LINGER_MS,
  checkPasses,
  type Delivery,
  DeliveryError,
  describe,
  formatOf,
  hostPort,
  isRemoval,
  recordsDocument,
  type Target,
  type TargetConfig,
  withDeadline,
} from "./target.ts";

const newClient = (options: Parameters<typeof createClient>[0]) => createClient(options);
type Client = ReturnType<typeof newClient>;

export class RedisTarget implements Target {
  readonly type = "redis" as const;
  readonly lingerMs = BATCH_LINGER_MS;
  readonly #format;
  #client: Client | null = null;
  #connecting: Promise<Client> | null = null;

  constructor(readonly id: string, private readonly config: TargetConfig) {
    hostPort(config.address, 6379);
    this.#format = formatOf(config);
  }

  #connect(): Promise<Client> {
    if (this.#client?.isReady) return Promise.resolve(this.#client);
    this.#connecting ??= (async () => {
      this.#drop();
      const { host, port } = hostPort(this.config.address, 6379);
      const client: Client = newClient({
        socket: { host, port, connectTimeout: 5000, reconnectStrategy: false },
        username: this.config.user || undefined,
        password: this.config.password || undefined,
        disableOfflineQueue: true,
      });
      client.on("error", () => {}); // failures surface on the commands; the next send reconnects
      try {
        await client.connect();
        const type = await client.type(this.config.key);
        const expected = this.#format === "namespace" ? "hash" : "list";
        if (type !== "none" && type !== expected) {
          throw new Error(`expected type ${expected} does not match with available type ${type}`);
        }
      } catch (error) {
        client.destroy();
        throw error;
      }
      this.#client = client;
      return client;
    })().finally(() => (this.#connecting = null));
    return this.#connecting!;
  }

  #drop(): void {
    if (this.#client) {
      try {
        this.#client.destroy();
      } catch { /* already closed */ }
    }
    this.#client = null;
  }

  async send(batch: Delivery[]): Promise<void> {
    try {
      const client = await this.#connect();
      const multi = client.multi();
      for (const { event } of batch) {
        const time = event.Records[0].eventTime;
        if (this.#format === "access") {
          multi.rPush(this.config.key, JSON.stringify([{ Event: event.Records, EventTime: time }]));
        } else if (isRemoval(event)) multi.hDel(this.config.key, event.Key);
        else multi.hSet(this.config.key, event.Key, recordsDocument(event));
      }
      await withDeadline(multi.exec(), 10_000, "redis transaction");
    } catch (error) {
      this.#drop();
      throw new DeliveryError(`redis: ${describe(error, [this.config.password])}`, 0);
    }
  }

  async isActive(): Promise<boolean> {
    const online = await checkPasses(this.#connect().then((client) => client.ping()));
    if (!online) this.#drop();
    return online;
  }

  close(): Promise<void> {
    this.#drop();
    return Promise.resolve();
  }
}
