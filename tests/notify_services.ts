/**
 * Readers for the real services on this machine (PostgreSQL, MariaDB, Redis, RabbitMQ, Mosquitto, NATS) and
 * an HTTP receiver for webhooks: what notification tests use to read events back exactly as a user's system
 * would. Every name is unique per run (other engineers use the same services) and `close()` removes it.
 */
import { Buffer } from "node:buffer";
import amqp from "amqplib";
import mqtt from "mqtt";
import mysql from "mysql2/promise";
import { connect as natsConnect } from "nats";
import postgres from "postgres";
import { createClient } from "redis";

export const SERVICES = {
  postgres: "host=127.0.0.1 port=5432 user=postgres dbname=test sslmode=disable",
  mysql: "root@tcp(127.0.0.1:3306)/test",
  redis: "127.0.0.1:6379",
  amqp: "amqp://guest:guest@127.0.0.1:5672",
  mqtt: "tcp://127.0.0.1:1883",
  nats: "127.0.0.1:4222",
};

/** A name nobody else uses: letters, digits and underscores. */
export const uniqueName = (prefix: string) =>
  `${prefix}_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`;

export interface Envelope {
  EventName: string;
  Key: string;
  Records: {
    eventName: string;
    eventTime: string;
    s3: { bucket: { name: string }; object: { key: string; size?: number; eTag?: string } };
  }[];
}

/** An HTTP server collecting webhook POSTs. */
/** An HTTP endpoint keeping what it is sent; HTTPS with `tls` (PEM certificate and key). */
export function webhookReceiver(
  options: { status?: () => number; tls?: { cert: string; key: string } } = {},
) {
  const received: { body: Envelope; authorization: string | null; at: number }[] = [];
  const listen = { hostname: "127.0.0.1", port: 0, onListen: () => {}, ...options.tls };
  const server = Deno.serve(listen, async (req) => {
    const text = await req.text();
    const status = options.status?.() ?? 200;
    if (status < 300) {
      received.push({
        body: JSON.parse(text),
        authorization: req.headers.get("authorization"),
        at: Date.now(),
      });
    }
    return new Response(null, { status });
  });
  return {
    url: `${options.tls ? "https" : "http"}://127.0.0.1:${(server.addr as Deno.NetAddr).port}/events`,
    received,
    close: () => server.shutdown(),
  };
}

export async function postgresReader(table: string) {
  const sql = postgres({
    host: "127.0.0.1",
    port: 5432,
    user: "postgres",
    database: "test",
    max: 1,
    onnotice: () => {},
  });
  return {
    rows: async () => await sql.unsafe(`SELECT * FROM ${table} ORDER BY 1`) as Record<string, unknown>[],
    close: async () => {
      await sql.unsafe(`DROP TABLE IF EXISTS ${table}`);
      await sql.end();
    },
    sql,
  };
}

export async function mysqlReader(table: string) {
  const conn = await mysql.createConnection({
    host: "127.0.0.1",
    port: 3306,
    user: "root",
    password: "",
    database: "test",
  });
  return {
    rows: async () => (await conn.query(`SELECT * FROM ${table}`))[0] as Record<string, unknown>[],
    close: async () => {
      await conn.query(`DROP TABLE IF EXISTS ${table}`);
      await conn.end();
    },
  };
}

export async function redisReader(key: string) {
  const client = createClient({ socket: { host: "127.0.0.1", port: 6379 } });
  client.on("error", () => {});
  await client.connect();
  return {
    hash: () => client.hGetAll(key),
    list: () => client.lRange(key, 0, -1),
    close: async () => {
      await client.del(key);
      client.destroy();
    },
  };
}

/** Declares the exchange as the target will and binds a private queue to it, collecting what arrives. */
export async function amqpReader(exchange: string, routingKey: string) {
  const connection = await amqp.connect(SERVICES.amqp);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, "direct", { durable: false, autoDelete: false });
  const { queue } = await channel.assertQueue("", { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, routingKey);
  const received: Envelope[] = [];
  await channel.consume(queue, (msg) => {
    if (msg) received.push(JSON.parse(Buffer.from(msg.content).toString("utf8")));
  }, { noAck: true });
  return {
    received,
    close: async () => {
      await channel.deleteExchange(exchange).catch(() => {});
      await connection.close();
    },
  };
}

export async function mqttReader(topic: string) {
  const client = await mqtt.connectAsync("mqtt://127.0.0.1:1883", { clientId: uniqueName("deck_test") });
  const received: Envelope[] = [];
  client.on("message", (_topic, payload) => received.push(JSON.parse(new TextDecoder().decode(payload))));
  await client.subscribeAsync(topic, { qos: 1 });
  return { received, close: () => client.endAsync() };
}

export async function natsReader(subject: string) {
  const conn = await natsConnect({ servers: SERVICES.nats });
  const received: Envelope[] = [];
  const sub = conn.subscribe(subject);
  const done = (async () => {
    for await (const msg of sub) received.push(JSON.parse(new TextDecoder().decode(msg.data)));
  })();
  await conn.flush();
  return {
    received,
    close: async () => {
      sub.unsubscribe();
      await done;
      await conn.close();
    },
  };
}

/** A TCP port on loopback that nothing listens on (for "wrong port" outages). */
export function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}
