/**
 * SelectObjectContent through the AWS SDK v3, which decodes (and checks the CRCs of) MinIO's event stream:
 * CSV and JSON input, plain, GZIP and BZIP2, CSV and JSON output, filters, functions and aggregates, Stats,
 * Progress and End events, and the errors of a bad query, a Parquet input and a corrupt compressed file.
 */
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import {
  CreateBucketCommand,
  PutObjectCommand,
  type S3Client,
  SelectObjectContentCommand,
  type SelectObjectContentCommandInput,
} from "@aws-sdk/client-s3";
import { awsCli } from "../storage/awscli.ts";
import { failsWith, startSdkStorage } from "./sdk_client.ts";

const CSV = 'name,city,age\n"Zoë, the first",Zürich,34\n李雷,北京,28\n"O""Brien",Cork,41\n';
/** CSV compressed by bzip2 -9 (no bzip2 compressor ships with the runtime). */
const CSV_BZ2 =
  "QlpoOTFBWSZTWYBXl2YAABnf/QAQUAQ8QBgAgBAr65wgAAUAigAMAJQIAAcgIABUYNNAHqNABkA0PaoRTamjTRkGhoepkAASURpFCmlKkNdm3xA+bdawYZiBMBgnISVie3ArHg6ETqv0W1mtEmxIL5vIBmYQSgu4fi7kinChIQCvLsw=";
const LINES = [
  { user: { name: "ana" }, score: 12, tags: ["a"] },
  { user: { name: "bo" }, score: 7, tags: [] },
  { user: { name: "cy" }, score: 30 },
  { user: { name: "dé" }, score: null },
].map((o) => JSON.stringify(o)).join("\n") + "\n";

interface Answer {
  records: string;
  events: string[];
  stats?: { BytesScanned?: number; BytesProcessed?: number; BytesReturned?: number };
}

async function select(sdk: S3Client, input: Partial<SelectObjectContentCommandInput>): Promise<Answer> {
  const out = await sdk.send(
    new SelectObjectContentCommand({
      Bucket: "select",
      Key: "people.csv",
      ExpressionType: "SQL",
      Expression: "SELECT * FROM S3Object",
      InputSerialization: { CSV: { FileHeaderInfo: "USE" } },
      OutputSerialization: { JSON: {} },
      ...input,
    } as SelectObjectContentCommandInput),
  );
  const answer: Answer = { records: "", events: [] };
  const decoder = new TextDecoder();
  for await (const event of out.Payload!) {
    const name = Object.keys(event).find((k) =>
      (event as unknown as Record<string, unknown>)[k] !== undefined
    )!;
    answer.events.push(name);
    if (event.Records) answer.records += decoder.decode(event.Records.Payload);
    if (event.Stats) answer.stats = event.Stats.Details;
  }
  return answer;
}

const jsonLines = (text: string) => text.trim().split("\n").map((line) => JSON.parse(line));

Deno.test("S3 Select: CSV, JSON, compression, outputs, filters, aggregates and the event stream", async (t) => {
  const f = await startSdkStorage();
  const sdk = f.sdk;
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: "select" }));
    const put = (Key: string, Body: string | Uint8Array) =>
      sdk.send(new PutObjectCommand({ Bucket: "select", Key, Body }));
    await put("people.csv", CSV);
    await put("people.csv.gz", gzipSync(new TextEncoder().encode(CSV)));
    await put("people.csv.bz2", Uint8Array.fromBase64(CSV_BZ2));
    await put("scores.jsonl", LINES);
    await put("orders.json", JSON.stringify({ items: [{ sku: "a", qty: 2 }, { sku: "b", qty: 5 }] }));

    await t.step(
      "CSV with a header to JSON, quoted fields, a cast in WHERE; Stats and End close it",
      async () => {
        const answer = await select(sdk, {
          Expression: "SELECT s.name, s.city FROM S3Object s WHERE CAST(s.age AS INT) > 30",
        });
        assert.deepEqual(jsonLines(answer.records), [
          { name: "Zoë, the first", city: "Zürich" },
          { name: 'O"Brien', city: "Cork" },
        ]);
        assert.deepEqual(answer.events, ["Records", "Stats", "End"]);
        assert.equal(answer.stats?.BytesScanned, new TextEncoder().encode(CSV).length);
        assert.equal(answer.stats?.BytesReturned, new TextEncoder().encode(answer.records).length);
      },
    );

    await t.step("the same rows from GZIP and BZIP2 input, as CSV output quoted as needed", async () => {
      for (
        const [Key, CompressionType] of [["people.csv.gz", "GZIP"], ["people.csv.bz2", "BZIP2"]] as const
      ) {
        const answer = await select(sdk, {
          Key,
          Expression: "SELECT name, age FROM S3Object WHERE age BETWEEN 30 AND 50",
          InputSerialization: { CompressionType, CSV: { FileHeaderInfo: "USE" } },
          OutputSerialization: { CSV: {} },
        });
        assert.equal(answer.records, '"Zoë, the first",34\n"O""Brien",41\n', CompressionType);
        assert.equal(answer.stats?.BytesProcessed, new TextEncoder().encode(CSV).length);
      }
    });

    await t.step("positional columns, LIKE, IN, functions, LIMIT, and Progress when asked", async () => {
      const answer = await select(sdk, {
        Expression:
          "SELECT UPPER(_2) AS city, CHAR_LENGTH(_1) AS n FROM S3Object WHERE _2 LIKE 'Z%' OR _3 IN ('28') LIMIT 2",
        InputSerialization: { CSV: { FileHeaderInfo: "IGNORE" } },
        RequestProgress: { Enabled: true },
      });
      assert.deepEqual(jsonLines(answer.records), [{ city: "ZÜRICH", n: 14 }, { city: "北京", n: 2 }]);
      assert.deepEqual(answer.events, ["Records", "Progress", "Stats", "End"]);
    });

    await t.step("aggregates over every row", async () => {
      const answer = await select(sdk, {
        Expression: "SELECT COUNT(*), SUM(CAST(age AS INT)), MIN(age), MAX(age), AVG(age) FROM S3Object",
        OutputSerialization: { CSV: {} },
      });
      assert.equal(answer.records, "3,103,28,41,34.333333333333336\n");
    });

    await t.step("JSON lines and a JSON document with a FROM path", async () => {
      const lines = await select(sdk, {
        Key: "scores.jsonl",
        Expression: "SELECT s.user.name, s.score FROM S3Object s WHERE s.score >= 10 OR s.score IS NULL",
        InputSerialization: { JSON: { Type: "LINES" } },
      });
      assert.deepEqual(jsonLines(lines.records), [
        { name: "ana", score: 12 },
        { name: "cy", score: 30 },
        { name: "dé", score: null },
      ]);
      const document = await select(sdk, {
        Key: "orders.json",
        Expression: "SELECT i.sku FROM S3Object[*].items[*] i WHERE i.qty > 3",
        InputSerialization: { JSON: { Type: "DOCUMENT" } },
        OutputSerialization: { CSV: {} },
      });
      assert.equal(document.records, "b\n");
    });

    await t.step("a large scan is answered in several Records messages, every row once", async () => {
      const rows = Array.from({ length: 40_000 }, (_, i) => `${i},ligne ${i} été,${i % 7}`).join("\n");
      await put("big.csv", `id,label,bucket\n${rows}\n`);
      const answer = await select(sdk, {
        Key: "big.csv",
        Expression: "SELECT id, label FROM S3Object WHERE bucket = 3",
        OutputSerialization: { CSV: {} },
      });
      assert.ok(answer.events.filter((e) => e === "Records").length > 1, "batched");
      const got = answer.records.trim().split("\n");
      assert.equal(got.length, Array.from({ length: 40_000 }, (_, i) => i).filter((i) => i % 7 === 3).length);
      assert.equal(got[0], "3,ligne 3 été");
    });

    await t.step("Debian's AWS CLI runs a query too", async () => {
      const cli = await awsCli(f);
      try {
        await cli.aws(
          "s3api",
          "select-object-content",
          "--bucket",
          "select",
          "--key",
          "people.csv.gz",
          "--expression",
          "SELECT s.city FROM S3Object s WHERE s.name LIKE '%Brien'",
          "--expression-type",
          "SQL",
          "--input-serialization",
          '{"CSV": {"FileHeaderInfo": "USE"}, "CompressionType": "GZIP"}',
          "--output-serialization",
          '{"CSV": {}}',
          `${cli.home}/out.csv`,
        );
        assert.equal(await Deno.readTextFile(`${cli.home}/out.csv`), "Cork\n");
      } finally {
        await cli.close();
      }
    });

    await t.step("errors: bad SQL, Parquet input, a corrupt compressed file, a missing key", async () => {
      await failsWith(select(sdk, { Expression: "SELEC * FROM S3Object" }), "ParseSelectFailure", 400);
      await failsWith(select(sdk, { Expression: "SELECT * FROM elsewhere" }), "BadTableName", 400);
      await failsWith(select(sdk, { InputSerialization: { Parquet: {} } }), "NotImplemented", 501);
      await failsWith(
        select(sdk, { InputSerialization: { CompressionType: "GZIP", CSV: {} } }),
        "InvalidCompressionFormat",
        400,
      );
      await failsWith(select(sdk, { Key: "nope.csv" }), "NoSuchKey", 404);
    });
  } finally {
    await f.close();
  }
});
