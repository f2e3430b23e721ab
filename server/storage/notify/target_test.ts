import assert from "node:assert/strict";
import { brokerUrl, parseConnectionString, parseDsn } from "./addresses.ts";
import { type NotifyEvent, planSteps } from "./target.ts";
import { authorizationHeader } from "./webhook.ts";

const event = (name: string, key: string) =>
  ({ EventName: name, Key: key, Records: [{}] }) as unknown as NotifyEvent;
const put = (key: string) => event("s3:ObjectCreated:Put", key);
const del = (key: string) => event("s3:ObjectRemoved:Delete", key);

Deno.test("planSteps: few statements, never reordering what touches the same key", () => {
  const shape = (steps: ReturnType<typeof planSteps>) =>
    steps.map((s) => `${s.kind}:${s.events.map((e) => e.Key).join(",")}`);
  assert.deepEqual(shape(planSteps([put("a"), put("b"), del("c"), del("a"), put("c")], "namespace")), [
    "upsert:a,b",
    "delete:c,a",
    "upsert:c",
  ]);
  assert.deepEqual(
    shape(planSteps([put("a"), put("a")], "namespace")),
    ["upsert:a", "upsert:a"],
    "a repeated key starts a new statement",
  );
  assert.deepEqual(shape(planSteps([put("a"), del("a"), put("a")], "access")), ["append:a,a,a"]);
  assert.deepEqual(planSteps([], "namespace"), []);
});

Deno.test("target addresses: Go MySQL DSNs, libpq strings, MQTT brokers, webhook tokens", () => {
  assert.deepEqual(parseDsn("root:p@ss@tcp(127.0.0.1:3306)/test?parseTime=true"), {
    user: "root",
    password: "p@ss",
    host: "127.0.0.1",
    port: 3306,
    database: "test",
  });
  assert.deepEqual(parseDsn("root@tcp(db)/x"), {
    user: "root",
    password: "",
    host: "db",
    port: 3306,
    database: "x",
  });
  assert.equal(parseDsn("no database here"), null);
  assert.deepEqual(parseConnectionString("host=h port=5432 password='a b' dbname=d"), {
    host: "h",
    port: "5432",
    password: "a b",
    dbname: "d",
  });
  assert.equal(brokerUrl("tcp://127.0.0.1:1883"), "mqtt://127.0.0.1:1883");
  assert.equal(brokerUrl("ssl://broker:8883"), "mqtts://broker:8883");
  assert.throws(() => brokerUrl("http://x"));
  assert.equal(authorizationHeader("abc"), "Bearer abc");
  assert.equal(authorizationHeader("Basic xyz"), "Basic xyz");
  assert.equal(authorizationHeader(""), undefined);
});

Deno.test("rowParts: the head, time and records read from the line equal a full parse, whatever the key holds", async () => {
  const { rowParts, recordsDocument } = await import("./target.ts");
  const { lazyDelivery } = await import("./runner.ts");
  const { buildEventRecord, targetRecord } = await import("../events/records.ts");
  for (const key of ['a b/c"Records":[x', 'ключ,"Records":[', "plain"]) {
    const context = {
      principalId: 'p"',
      sourceIp: "1.2.3.4",
      userAgent: 'ua,"Records":[',
      requestId: "r",
      region: 'us-"east',
      deploymentId: "d",
      originEndpoint: "e",
    };
    const record = targetRecord(
      buildEventRecord("s3:ObjectCreated:Put", "bk", { bucket: "bk", key, versioned: false }, context),
    );
    const line = JSON.stringify({ EventName: "s3:ObjectCreated:Put", Key: `bk/${key}`, Records: [record] });
    const event = lazyDelivery(line).event;
    assert.deepEqual(rowParts(lazyDelivery(line)), {
      EventName: event.EventName,
      Key: event.Key,
      eventTime: event.Records[0].eventTime,
      records: recordsDocument(event),
    });
  }
});
