import assert from "node:assert/strict";
import { postgresReader, SERVICES } from "../../../tests/notify_services.ts";
import { buildEventRecord, targetRecord } from "../events/records.ts";
import { PostgresTarget } from "./postgresql.ts";
import { lazyDelivery } from "./runner.ts";

const line = (eventName: string, key: string) => {
  const context = {
    principalId: "u",
    sourceIp: "127.0.0.1",
    userAgent: "ua",
    requestId: "r",
    region: "us-east-1",
    deploymentId: "d",
    originEndpoint: "http://x",
  };
  const record = targetRecord(
    buildEventRecord(eventName, "bk", { bucket: "bk", key, versioned: false }, context),
  );
  return JSON.stringify({ EventName: eventName, Key: `bk/${key}`, Records: [record] });
};

Deno.test("postgresql target: rows hold the records as JSON objects, in namespace and access format", async () => {
  const run = `deck_pgt_${crypto.randomUUID().replace(/-/g, "").slice(0, 10)}`;
  for (const format of ["namespace", "access"]) {
    const table = `${run}_${format}`;
    const reader = await postgresReader(table);
    const target = new PostgresTarget("_", { connection_string: SERVICES.postgres, table, format });
    try {
      const lines = [
        line("s3:ObjectCreated:Put", "a b"),
        line("s3:ObjectCreated:Put", 'q"uote'),
        line("s3:ObjectRemoved:Delete", "a b"),
      ];
      await target.send(lines.map(lazyDelivery));
      const rows = await reader.rows();
      if (format === "namespace") {
        assert.deepEqual(rows.map((r) => r.key), ['bk/q"uote']);
        assert.deepEqual(rows[0].value, { Records: lazyDelivery(lines[1]).event.Records });
      } else {
        assert.equal(rows.length, 3);
        const stored = rows.map((r) =>
          r.event_data as { Records: { eventName: string; eventTime: string }[] }
        );
        assert.deepEqual(stored.map((d) => d.Records[0].eventName).sort(), [
          "s3:ObjectCreated:Put",
          "s3:ObjectCreated:Put",
          "s3:ObjectRemoved:Delete",
        ]);
        for (const r of rows) {
          assert.equal(
            (r.event_time as Date).toISOString(),
            (r.event_data as { Records: { eventTime: string }[] }).Records[0].eventTime,
          );
        }
      }
    } finally {
      await target.close();
      await reader.close();
    }
  }
});
