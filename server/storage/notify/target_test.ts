import assert from "node:assert/strict";
import { brokerUrl, parseConnectionString, parseDsn } from "./addresses.ts";
import { type NotifyEvent, planSteps } from "./target.ts";
import { authorizationHeader } from "./webhook.ts";

const event = (name: string, key: string) => ({ EventName: name, Key: key, Records: [{}] }) as unknown as NotifyEvent;
const put = (key: string) => event("s3:ObjectCreated:Put", key);
const del = (key: string) => event("s3:ObjectRemoved:Delete", key);

Deno.test("planSteps: few statements, never reordering what touches the same key", () => {
  const shape = (steps: ReturnType<typeof planSteps>) => steps.map((s) => `${s.kind}:${s.events.map((e) => e.Key).join(",")}`);
  assert.deepEqual(shape(planSteps([put("a"), put("b"), del("c"), del("a"), put("c")], "namespace")), ["upsert:a,b", "delete:c,a", "upsert:c"]);
  assert.deepEqual(shape(planSteps([put("a"), put("a")], "namespace")), ["upsert:a", "upsert:a"], "a repeated key starts a new statement");
  assert.deepEqual(shape(planSteps([put("a"), del("a"), put("a")], "access")), ["append:a,a,a"]);
  assert.deepEqual(planSteps([], "namespace"), []);
});

Deno.test("target addresses: Go MySQL DSNs, libpq strings, MQTT brokers, webhook tokens", () => {
  assert.deepEqual(parseDsn("root:p@ss@tcp(127.0.0.1:3306)/test?parseTime=true"), { user: "root", password: "p@ss", host: "127.0.0.1", port: 3306, database: "test" });
  assert.deepEqual(parseDsn("root@tcp(db)/x"), { user: "root", password: "", host: "db", port: 3306, database: "x" });
  assert.equal(parseDsn("no database here"), null);
  assert.deepEqual(parseConnectionString("host=h port=5432 password='a b' dbname=d"), { host: "h", port: "5432", password: "a b", dbname: "d" });
  assert.equal(brokerUrl("tcp://127.0.0.1:1883"), "mqtt://127.0.0.1:1883");
  assert.equal(brokerUrl("ssl://broker:8883"), "mqtts://broker:8883");
  assert.throws(() => brokerUrl("http://x"));
  assert.equal(authorizationHeader("abc"), "Bearer abc");
  assert.equal(authorizationHeader("Basic xyz"), "Basic xyz");
  assert.equal(authorizationHeader(""), undefined);
});
