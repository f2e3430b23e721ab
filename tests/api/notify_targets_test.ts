/**
 * Notification targets deliver for real (issue 14): each kind is configured through the console's API,
 * a bucket subscribes to it, objects are put and deleted over S3, and the events are read back from the
 * real service. Then an outage: a target on a wrong port is Offline and queues on disk; set to the right
 * port, it delivers everything in order, none lost, none twice.
 */
import assert from "node:assert/strict";
import { deleteObject, putObject } from "../../server/lib/s3/ops/objects.ts";
import { makeBucket } from "../../server/lib/s3/ops/buckets.ts";
import { BACKGROUND_NICE } from "../../server/storage/core/background_thread.ts";
import { type ConsoleClient, signInAsRoot, startStack } from "../helpers.ts";
import { threadNice, threadsAtNice } from "../threads.ts";
import {
  amqpReader,
  closedPort,
  type Envelope,
  mqttReader,
  mysqlReader,
  natsReader,
  postgresReader,
  redisReader,
  SERVICES,
  uniqueName,
  webhookReceiver,
} from "../notify_services.ts";
import { eventually } from "../eventually.ts";

async function configure(client: ConsoleClient, subsystem: string, values: Record<string, string>, id = "") {
  const key_values = Object.entries(values).map(([key, value]) => ({ key, value }));
  return await client.json<{ restart: boolean }>("PUT", `/api/v1/configs/${subsystem}`, {
    key_values,
    arn_resource_id: id,
  }, 200);
}

const names = (events: Envelope[]) => events.map((e) => `${e.EventName} ${e.Key}`);

Deno.test("notification targets: webhook, PostgreSQL, MariaDB, Redis, AMQP, MQTT and NATS receive the bucket's events", async () => {
  const stack = await startStack();
  const queueDir = await Deno.makeTempDir({ prefix: "deck-queue-" });
  const run = uniqueName("deck");
  const hook = webhookReceiver();
  const pg = await postgresReader(`${run}_pg`);
  const my = await mysqlReader(`${run}_my`);
  const redis = await redisReader(`${run}_redis`);
  const rabbit = await amqpReader(`${run}_ex`, `${run}_rk`);
  const mq = await mqttReader(`deck/${run}`);
  const nats = await natsReader(`deck.${run}`);
  try {
    const client = await signInAsRoot(stack);
    await configure(client, "notify_webhook", {
      endpoint: hook.url,
      auth_token: "s3cret-token",
      queue_dir: `${queueDir}/webhook`,
      queue_limit: "10000",
    });
    await configure(client, "notify_postgres", {
      connection_string: SERVICES.postgres,
      table: `${run}_pg`,
      format: "namespace",
    });
    await configure(client, "notify_mysql", {
      dsn_string: SERVICES.mysql,
      table: `${run}_my`,
      format: "access",
    });
    await configure(client, "notify_redis", {
      address: SERVICES.redis,
      key: `${run}_redis`,
      queue_dir: `${queueDir}/redis`,
    });
    await configure(client, "notify_amqp", {
      url: SERVICES.amqp,
      exchange: `${run}_ex`,
      exchange_type: "direct",
      routing_key: `${run}_rk`,
      delivery_mode: "1",
      queue_dir: `${queueDir}/amqp`,
    });
    const saved = await configure(client, "notify_mqtt", {
      broker: SERVICES.mqtt,
      topic: `deck/${run}`,
      qos: "1",
      queue_dir: `${queueDir}/mqtt`,
    });
    assert.equal(saved.restart, true, "a new target takes effect at the restart");
    await configure(client, "notify_nats", {
      address: SERVICES.nats,
      subject: `deck.${run}`,
      queue_dir: `${queueDir}/nats`,
    });
    await client.json("POST", "/api/v1/service/restart", {}, 204);

    const { arns } = await client.json<{ arns: string[] }>("GET", "/api/v1/admin/arns", undefined, 200);
    const types = ["amqp", "mqtt", "mysql", "nats", "postgresql", "redis", "webhook"];
    assert.deepEqual(arns, types.map((t) => `arn:minio:sqs::_:${t}`));
    const { notification_endpoints } = await client.json<
      { notification_endpoints: { service: string; account_id: string; status: string }[] }
    >("GET", "/api/v1/admin/notification_endpoints", undefined, 200);
    assert.deepEqual(
      notification_endpoints.map((e) => `${e.service}:${e.account_id}:${e.status}`).sort(),
      types.map((t) => `${t}:_:online`),
    );

    await makeBucket(stack.admin, "photos");
    for (const arn of arns) {
      await client.json("POST", "/api/v1/buckets/photos/events", {
        configuration: { arn, events: ["put", "delete"], prefix: "", suffix: "" },
        ignoreExisting: true,
      }, 201);
    }
    await putObject(stack.admin, "photos", "2024/a b.jpg", "first", { contentType: "image/jpeg" });
    await putObject(stack.admin, "photos", "doc.txt", "second");
    await deleteObject(stack.admin, "photos", "2024/a b.jpg");
    const expected = [
      "s3:ObjectCreated:Put photos/2024/a b.jpg",
      "s3:ObjectCreated:Put photos/doc.txt",
      "s3:ObjectRemoved:Delete photos/2024/a b.jpg",
    ];

    const hooked = await eventually("webhook events", () => hook.received, { until: (r) => r.length >= 3 });
    assert.deepEqual(names(hooked.map((r) => r.body)), expected);
    assert.equal(
      hooked[0].authorization,
      "Bearer s3cret-token",
      "a one-word token is sent as a Bearer token",
    );
    assert.equal(
      hooked[0].body.Records[0].s3.object.key,
      "2024%2Fa+b.jpg",
      "targets get the key query-escaped",
    );
    assert.equal(hooked[0].body.Records[0].s3.object.size, 5);

    // Namespace format: one row per existing object, removed with it.
    const pgRows = await eventually("postgres namespace rows", () => pg.rows(), {
      until: (rows) => rows.length === 1 && rows[0].key === "photos/doc.txt",
    });
    assert.equal(
      (pgRows[0].value as { Records: { eventName: string }[] }).Records[0].eventName,
      "s3:ObjectCreated:Put",
    );
    // Access format: one row per event, in order.
    const myRows = await eventually("mariadb access rows", () => my.rows(), {
      until: (rows) => rows.length === 3,
    });
    assert.deepEqual(
      myRows.map((r) => (r.event_data as { Records: { eventName: string }[] }).Records[0].eventName),
      expected.map((e) => e.split(" ")[0]),
    );
    assert.ok(myRows[0].event_time instanceof Date);

    const hash = await eventually("redis namespace hash", () => redis.hash(), {
      until: (h) => Object.keys(h).length === 1 && "photos/doc.txt" in h,
    });
    assert.equal(JSON.parse(hash["photos/doc.txt"]).Records[0].s3.object.key, "doc.txt");

    for (const [name, reader] of [["amqp", rabbit], ["mqtt", mq], ["nats", nats]] as const) {
      const got = await eventually(`${name} messages`, () => reader.received, {
        until: (r) => r.length >= 3,
      });
      assert.deepEqual(names(got), expected, `${name} receives the envelope of every event in order`);
    }
  } finally {
    await Promise.allSettled([
      hook.close(),
      pg.close(),
      my.close(),
      redis.close(),
      rabbit.close(),
      mq.close(),
      nats.close(),
    ]);
    await stack.close();
    await Deno.remove(queueDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("notification targets: an outage queues events on disk; back on the right port they arrive in order, none lost, none twice", async () => {
  const stack = await startStack();
  const queueDir = await Deno.makeTempDir({ prefix: "deck-queue-" });
  const hook = webhookReceiver();
  const run = uniqueName("deck");
  const my = await mysqlReader(`${run}_out`);
  try {
    const client = await signInAsRoot(stack);
    const wrong = `http://127.0.0.1:${closedPort()}/events`;
    await configure(client, "notify_webhook", { endpoint: wrong, queue_dir: queueDir }, "outage");
    await configure(client, "notify_mysql", {
      dsn_string: `root@tcp(127.0.0.1:${closedPort()})/test`,
      table: `${run}_out`,
      format: "access",
      queue_dir: queueDir,
    }, "outage");
    await client.json("POST", "/api/v1/service/restart", {}, 204);
    const list = await client.json<{ notification_endpoints: { service: string; status: string }[] }>(
      "GET",
      "/api/v1/admin/notification_endpoints",
      undefined,
      200,
    );
    assert.deepEqual(list.notification_endpoints.map((e) => `${e.service}:${e.status}`).sort(), [
      "mysql:offline",
      "webhook:offline",
    ], "an unreachable target is saved and shown Offline");

    await makeBucket(stack.admin, "outage");
    for (const arn of ["arn:minio:sqs::outage:webhook", "arn:minio:sqs::outage:mysql"]) {
      await client.json("POST", "/api/v1/buckets/outage/events", {
        configuration: { arn, events: ["put"], prefix: "", suffix: "" },
        ignoreExisting: true,
      }, 201);
    }
    const keys = Array.from({ length: 25 }, (_, i) => `k${String(i).padStart(2, "0")}`);
    for (const key of keys) await putObject(stack.admin, "outage", key, key);
    await eventually("events queued on disk", async () => (await stack.storage.notifier.stats()).targets, {
      until: (t) => t["outage:webhook"]?.queued === 25 && t["outage:mysql"]?.queued === 25,
    });
    assert.equal((await stack.storage.notifier.stats()).targets["outage:webhook"].dropped, 0);

    await configure(client, "notify_webhook", { endpoint: hook.url }, "outage");
    await configure(client, "notify_mysql", { dsn_string: SERVICES.mysql }, "outage");
    await client.json("POST", "/api/v1/service/restart", {}, 204);
    const more = ["k25", "k26"];
    for (const key of more) await putObject(stack.admin, "outage", key, key);

    const all = [...keys, ...more].map((k) => `outage/${k}`);
    const hooked = await eventually("queued webhook events", () => hook.received, {
      until: (r) => r.length >= all.length,
    });
    assert.deepEqual(hooked.map((r) => r.body.Key), all, "in order, none lost");
    const rows = await eventually("queued mariadb rows", () => my.rows(), {
      until: (r) => r.length >= all.length,
    });
    assert.deepEqual(
      rows.map((r) =>
        (r.event_data as { Records: { s3: { object: { key: string } } }[] }).Records[0].s3.object.key
      ),
      all.map((k) => k.slice("outage/".length)),
    );
    await eventually(
      "queue drained",
      async () => (await stack.storage.notifier.stats()).targets["outage:webhook"],
      { until: (s) => s.queued === 0 },
    );
    assert.equal(hook.received.length, all.length, "none twice");
    assert.equal((await my.rows()).length, all.length, "none twice");
    const list2 = await client.json<{ notification_endpoints: { service: string; status: string }[] }>(
      "GET",
      "/api/v1/admin/notification_endpoints",
      undefined,
      200,
    );
    assert.deepEqual(list2.notification_endpoints.map((e) => `${e.service}:${e.status}`).sort(), [
      "mysql:online",
      "webhook:online",
    ]);
    // Delivery is background work: its thread runs at a lower priority than the one serving S3 requests
    // (what `ps -L -o tid,comm,nice` shows an administrator).
    assert.equal(threadNice(Deno.pid, Deno.pid), 0, "the thread serving requests keeps its priority");
    assert.ok(threadsAtNice(Deno.pid, BACKGROUND_NICE).size > 0, "a thread runs at the delivery priority");
  } finally {
    await hook.close();
    await my.close();
    await stack.close();
    await Deno.remove(queueDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("notification targets: every kind on a closed port is saved, listed Offline quickly, and costs no request", async () => {
  const stack = await startStack();
  try {
    const client = await signInAsRoot(stack);
    const port = closedPort();
    const queueDir = `${stack.dataDir}/queues`;
    await configure(client, "notify_webhook", { endpoint: `http://127.0.0.1:${port}/`, queue_dir: queueDir });
    await configure(client, "notify_postgres", {
      connection_string: `host=127.0.0.1 port=${port} user=postgres dbname=test sslmode=disable`,
      table: "nowhere",
      format: "namespace",
    });
    await configure(client, "notify_mysql", {
      dsn_string: `root@tcp(127.0.0.1:${port})/test`,
      table: "nowhere",
      format: "namespace",
    });
    await configure(client, "notify_redis", {
      address: `127.0.0.1:${port}`,
      key: "nowhere",
      queue_dir: queueDir,
    });
    await configure(client, "notify_amqp", {
      url: `amqp://guest:guest@127.0.0.1:${port}`,
      exchange: "nowhere",
      queue_dir: queueDir,
    });
    await configure(client, "notify_mqtt", {
      broker: `tcp://127.0.0.1:${port}`,
      topic: "nowhere",
      queue_dir: queueDir,
    });
    await configure(client, "notify_nats", {
      address: `127.0.0.1:${port}`,
      subject: "nowhere",
      queue_dir: queueDir,
    });
    await configure(client, "notify_nsq", {
      nsqd_address: `127.0.0.1:${port}`,
      topic: "nowhere",
      queue_dir: queueDir,
    });
    // A queue directory that cannot be created: the target is still listed, Offline.
    await configure(client, "notify_elasticsearch", {
      url: `http://127.0.0.1:${port}`,
      index: "nowhere",
      format: "access",
      queue_dir: "/proc/deck-cannot-write-here",
    });
    await client.json("POST", "/api/v1/service/restart", {}, 204);
    const started = Date.now();
    const { notification_endpoints } = await client.json<
      { notification_endpoints: { service: string; status: string }[] }
    >("GET", "/api/v1/admin/notification_endpoints", undefined, 200);
    assert.deepEqual(
      notification_endpoints.map((e) => `${e.service}:${e.status}`).sort(),
      ["amqp", "elasticsearch", "mqtt", "mysql", "nats", "nsq", "postgresql", "redis", "webhook"].map((s) =>
        `${s}:offline`
      ),
    );
    assert.ok(Date.now() - started < 5000, "connection checks of refused ports answer quickly");
    await makeBucket(stack.admin, "quiet");
    const arns = (await client.json<{ arns: string[] }>("GET", "/api/v1/admin/arns", undefined, 200)).arns;
    for (const arn of arns) {
      await client.json("POST", "/api/v1/buckets/quiet/events", {
        configuration: { arn, events: ["put"], prefix: "", suffix: "" },
        ignoreExisting: true,
      }, 201);
    }
    for (let i = 0; i < 5; i++) await putObject(stack.admin, "quiet", `k${i}`, "x");
    await eventually(
      "drops counted, queued kept",
      async () => (await stack.storage.notifier.stats()).targets,
      { until: (t) => t["_:postgresql"]?.dropped === 5 && t["_:webhook"]?.queued === 5 },
    );
    assert.equal(
      (await stack.storage.notifier.stats()).targets["_:elasticsearch"].dropped,
      5,
      "a target that could not start drops and counts",
    );
  } finally {
    await stack.close();
  }
});
