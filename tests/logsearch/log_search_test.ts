/**
 * The log-search service against SQLite and against the loopback PostgreSQL (a schema of its own per run):
 * ingest with tokens, filters with wildcards and escapes, paging, order, time range, retention, and
 * injection attempts in filter values that match nothing and change nothing.
 */
import assert from "node:assert/strict";
import postgres from "postgres";
import { createLogSearchService, type LogSearchService } from "../../server/logsearch/service.ts";
import { parseLogQuery } from "../../server/logsearch/query.ts";
import { SqliteThreadStore } from "../../server/logsearch/sqlite_thread.ts";
import { openAuditStore } from "../../server/logsearch/store.ts";

const PG_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const AUDIT = "audit-token-1";
const QUERY = "query-token-1";
const BASE = Date.parse("2026-03-01T00:00:00Z");

/** A MinIO audit entry (minio-protocol-2 §2.3) at BASE + minutes. */
function entry(
  n: number,
  api: string,
  bucket: string,
  object: string,
  extra: { ua?: string; status?: [number, string]; key?: string } = {},
) {
  const [code, status] = extra.status ?? [200, "OK"];
  return {
    version: "1",
    time: new Date(BASE + n * 60_000).toISOString().replace(/\.\d{3}Z$/, ".123456789Z"),
    trigger: "incoming",
    api: { name: api, bucket, object, status, statusCode: code, timeToResponse: `${1000 + n}ns` },
    remotehost: "10.0.0.7",
    requestID: `REQ${String(n).padStart(4, "0")}`,
    userAgent: extra.ua ?? "aws-cli/2.9",
    requestHeader: {
      "Content-Length": String(n),
      Authorization: `AWS4-HMAC-SHA256 Credential=${
        extra.key ?? "alice"
      }/20260301/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=*REDACTED*`,
    },
    responseHeader: { "Content-Length": "0" },
  };
}

const ENTRIES = [
  ...Array.from({ length: 25 }, (_, n) => entry(n, "PutObject", "photos", `2024/img${n}.jpg`)),
  entry(30, "GetObject", "my.bucket", "a.txt"),
  entry(31, "GetObject", "my-bucket", "b.txt"),
  entry(32, "HeadObject", "logs", "missing", { status: [404, "Not Found"] }),
  entry(33, "ListBuckets", "", "", { ua: "100%_sure", key: "bob" }),
  entry(34, "ListBuckets", "", "", { ua: "1000 sure" }),
];

async function ingestAll(service: LogSearchService): Promise<void> {
  // Half one by one (MinIO's batch_size 1), half as one NDJSON body; the first is MinIO's probe.
  const probe = await service.fetch(
    new Request(`http://ls/api/ingest?token=${AUDIT}`, { method: "POST", body: "{}" }),
  );
  assert.equal(probe.status, 200);
  const [single, batch] = [ENTRIES.slice(0, 15), ENTRIES.slice(15)];
  await Promise.all(single.map(async (e) => {
    const res = await service.fetch(
      new Request(`http://ls/api/ingest?token=${AUDIT}`, { method: "POST", body: JSON.stringify(e) }),
    );
    assert.equal(res.status, 200, await res.text());
  }));
  const res = await service.fetch(
    new Request(`http://ls/api/ingest?token=${AUDIT}`, {
      method: "POST",
      body: batch.map((e) => JSON.stringify(e)).join("\n"),
    }),
  );
  assert.equal(res.status, 200);
}

async function query(
  service: LogSearchService,
  params: string,
): Promise<{ status: number; rows: Record<string, unknown>[]; text: string }> {
  const res = await service.fetch(new Request(`http://ls/api/query?token=${QUERY}&q=reqinfo&${params}`));
  const text = await res.text();
  return { status: res.status, rows: res.status === 200 ? JSON.parse(text) : [], text };
}

const fp = (key: string, value: string) => `fp=${encodeURIComponent(`${key}:${value}`)}`;

async function exercise(t: Deno.TestContext, service: LogSearchService, count: () => Promise<number>) {
  await t.step("tokens are required", async () => {
    assert.equal(
      (await service.fetch(new Request("http://ls/api/ingest?token=nope", { method: "POST", body: "{}" })))
        .status,
      403,
    );
    assert.equal((await service.fetch(new Request("http://ls/api/query?token=nope&q=reqinfo"))).status, 403);
    assert.equal((await service.fetch(new Request("http://ls/status"))).status, 200);
  });
  await ingestAll(service);
  await t.step("rows keep every column; the access key comes from the Authorization credential", async () => {
    const { rows } = await query(service, `${fp("request_id", "REQ0033")}&pageSize=10`);
    assert.deepEqual(rows, [{
      time: "2026-03-01T00:33:00.123456Z",
      api_name: "ListBuckets",
      access_key: "bob",
      bucket: null,
      object: null,
      time_to_response_ns: 1033,
      remote_host: "10.0.0.7",
      request_id: "REQ0033",
      user_agent: "100%_sure",
      response_status: "OK",
      response_status_code: 200,
      request_content_length: 33,
      response_content_length: 0,
    }]);
  });
  await t.step("newest first by default, pages of pageSize, pageNo moves through them", async () => {
    const first = await query(service, "pageSize=10&pageNo=0");
    const second = await query(service, "pageSize=10&pageNo=1");
    const last = await query(service, "pageSize=10&pageNo=2");
    assert.equal(first.rows[0].request_id, "REQ0034");
    assert.equal(first.rows.length, 10);
    assert.equal(second.rows[0].request_id, "REQ0019");
    assert.equal(last.rows.length, 10);
    assert.equal((await query(service, "pageSize=10&pageNo=3")).rows.length, 0);
    const ids = [...first.rows, ...second.rows, ...last.rows].map((r) => r.request_id);
    assert.equal(new Set(ids).size, 30, "no row twice across pages");
    assert.equal((await query(service, "pageSize=10&timeAsc=ok")).rows[0].request_id, "REQ0000");
  });
  await t.step("time range: start inclusive, end exclusive", async () => {
    const { rows } = await query(
      service,
      `timeStart=${encodeURIComponent("2026-03-01T00:10:00.123456Z")}&timeEnd=${
        encodeURIComponent("2026-03-01T00:13:00Z")
      }&timeAsc=ok&pageSize=10`,
    );
    assert.deepEqual(rows.map((r) => r.request_id), ["REQ0010", "REQ0011", "REQ0012"]);
  });
  await t.step(
    "filters: exact, `.` one character, escaped dot, `*` any, text status, literal % and _",
    async () => {
      const ids = async (...filters: string[]) =>
        (await query(service, `${filters.join("&")}&pageSize=100&timeAsc=ok`)).rows.map((r) => r.request_id);
      assert.equal((await ids(fp("bucket", "photos"))).length, 25);
      assert.deepEqual(
        await ids(fp("bucket", "my.bucket")),
        ["REQ0030", "REQ0031"],
        "an unescaped dot matches any one character",
      );
      assert.deepEqual(await ids(fp("bucket", "my\\.bucket")), ["REQ0030"], "an escaped dot matches a dot");
      assert.deepEqual(await ids(fp("object", "2024/img1*")), [
        "REQ0001",
        "REQ0010",
        "REQ0011",
        "REQ0012",
        "REQ0013",
        "REQ0014",
        "REQ0015",
        "REQ0016",
        "REQ0017",
        "REQ0018",
        "REQ0019",
      ]);
      assert.deepEqual(
        await ids(fp("api_name", "*Object"), fp("bucket", "my*")),
        ["REQ0030", "REQ0031"],
        "filters combine",
      );
      assert.deepEqual(await ids(fp("response_status", "Not Found")), ["REQ0032"]);
      assert.deepEqual(
        await ids(fp("user_agent", "100%_sure")),
        ["REQ0033"],
        "% and _ are literal without wildcards",
      );
      assert.deepEqual(await ids(fp("user_agent", "100%*")), ["REQ0033"], "…and literal inside a pattern");
      assert.deepEqual(await ids(fp("access_key", "bob")), ["REQ0033"]);
      assert.deepEqual(await ids(fp("bucket", "PHOTOS")), [], "case-sensitive");
    },
  );
  await t.step("injection attempts match nothing and break nothing", async () => {
    const before = await count();
    for (
      const attack of [
        "x' OR '1'='1",
        "'; DROP TABLE request_info; --",
        "photos' --",
        "%' OR 1=1 --",
        "*' UNION SELECT * FROM request_info --",
      ]
    ) {
      const result = await query(service, `${fp("bucket", attack)}&pageSize=10`);
      assert.equal(result.status, 200, result.text);
      assert.deepEqual(result.rows, [], attack);
    }
    assert.equal(await count(), before);
    assert.equal(
      (await query(service, `${fp("bucket", "photos")}&pageSize=10`)).rows.length,
      10,
      "the table still answers",
    );
  });
  await t.step("bad parameters answer 400 with the service's message", async () => {
    assert.match((await query(service, fp("owner", "x"))).text, /^Bad params:: Unknown filter param: owner/);
    assert.match((await query(service, "pageSize=5")).text, /pageSize must be between 10 and 10000/);
    assert.match((await query(service, "timeStart=yesterday")).text, /timeStart is not an RFC 3339 time/);
    assert.match((await query(service, "timeAsc=ok&timeDesc=ok")).text, /both timeasc and timedesc/);
    const bad = async (params: string) => {
      const res = await service.fetch(new Request(`http://ls/api/query?token=${QUERY}&${params}`));
      assert.equal(res.status, 400, params);
      return await res.text();
    };
    assert.match(await bad("q=everything"), /Invalid query name: everything/);
    assert.match(await bad("q=raw&last=24h&timeStart=2026-03-01"), /last may not be given with timeStart/);
    assert.match(await bad("q=raw&last=yesterday"), /last is not a duration/);
    assert.match(await bad("q=reqinfo&export=xml"), /Invalid export format/);
    assert.match(await bad("q=reqinfo&export=csv&pageSize=10"), /may not be given with export/);
  });
  await t.step(
    "q=raw: the stored entries with their event time, filtered like request info, without signatures",
    async () => {
      const res = await service.fetch(
        new Request(`http://ls/api/query?token=${QUERY}&q=raw&${fp("bucket", "my*")}&timeAsc=ok&pageSize=10`),
      );
      assert.equal(res.status, 200);
      const rows = await res.json();
      assert.deepEqual(rows.map((r: { event_time: string }) => r.event_time), [
        "2026-03-01T00:30:00.123456Z",
        "2026-03-01T00:31:00.123456Z",
      ]);
      assert.deepEqual(rows[0].log.api, ENTRIES[25].api);
      assert.equal(rows[0].log.requestID, "REQ0030");
      assert.equal(
        rows[0].log.requestHeader.Authorization,
        "AWS4-HMAC-SHA256 Credential=alice/20260301/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=*REDACTED*",
      );
      const signed = {
        ...entry(40, "GetObject", "sig", "s"),
        requestHeader: {
          Authorization:
            "AWS4-HMAC-SHA256 Credential=carol/20260301/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=0123abcd",
          "X-Amz-Security-Token": "tok",
        },
      };
      assert.equal(
        (await service.fetch(
          new Request(`http://ls/api/ingest?token=${AUDIT}`, {
            method: "POST",
            body: JSON.stringify(signed),
          }),
        )).status,
        200,
      );
      const stored = await (await service.fetch(
        new Request(`http://ls/api/query?token=${QUERY}&q=raw&${fp("bucket", "sig")}&pageSize=10`),
      )).json();
      assert.doesNotMatch(
        JSON.stringify(stored),
        /0123abcd|"tok"/,
        "a signature and a session token are not kept",
      );
      assert.equal(
        stored[0].log.requestHeader.Authorization,
        "AWS4-HMAC-SHA256 Credential=carol/20260301/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=*REDACTED*",
      );
    },
  );
  await t.step(
    "last=<duration> counts back from now; export streams every row as CSV or NDJSON",
    async () => {
      const recent = await service.fetch(
        new Request(`http://ls/api/query?token=${QUERY}&q=reqinfo&last=1h&pageSize=100`),
      );
      assert.deepEqual(await recent.json(), [], "the entries are from March 2026, long before the last hour");
      const csv = await service.fetch(
        new Request(
          `http://ls/api/query?token=${QUERY}&q=reqinfo&${fp("bucket", "photos")}&timeAsc=ok&export=csv`,
        ),
      );
      assert.equal(csv.headers.get("content-type"), "text/csv");
      assert.equal(csv.headers.get("content-disposition"), "attachment; filename=logs-export.csv");
      const lines = (await csv.text()).trimEnd().split("\n");
      assert.equal(
        lines[0],
        "time,api_name,access_key,bucket,object,time_to_response_ns,remote_host,request_id,user_agent,response_status,response_status_code,request_content_length,response_content_length",
      );
      assert.equal(lines.length, 26, "every matching row, not a page of 10");
      assert.equal(
        lines[1],
        "2026-03-01T00:00:00.123456Z,PutObject,alice,photos,2024/img0.jpg,1000,10.0.0.7,REQ0000,aws-cli/2.9,OK,200,0,0",
      );
      const nd = await service.fetch(
        new Request(`http://ls/api/query?token=${QUERY}&q=raw&${fp("request_id", "REQ003*")}&export=ndjson`),
      );
      assert.equal(nd.headers.get("content-type"), "application/x-ndjson");
      const objects = (await nd.text()).trimEnd().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(objects.map((o) => o.log.requestID), [
        "REQ0034",
        "REQ0033",
        "REQ0032",
        "REQ0031",
        "REQ0030",
      ]);
    },
  );
}

Deno.test("log search on SQLite", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "deck-logsearch-" });
  const store = await openAuditStore({ databaseUrl: "", sqlitePath: `${dir}/audit.sqlite` });
  const service = createLogSearchService({ store, auditToken: AUDIT, queryToken: QUERY, retentionMs: 0 });
  try {
    await exercise(t, service, () => store.count());
    await t.step("retention drops old rows", async () => {
      const aged = createLogSearchService({
        store,
        auditToken: AUDIT,
        queryToken: QUERY,
        retentionMs: 60_000,
        now: () => BASE + 21 * 60_000,
      });
      assert.equal(await aged.prune(), 20, "rows more than a minute older than 00:21 are gone");
      assert.equal(await store.count(), 11, "ten of the entries above and the signed one");
    });
  } finally {
    await service.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a search that reads every SQLite row leaves the console's thread free; the store outlives its thread", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deck-logsearch-" });
  const store = await openAuditStore({ databaseUrl: "", sqlitePath: `${dir}/audit.sqlite` });
  try {
    const ROWS = 100_000;
    for (let at = 0; at < ROWS; at += 5000) {
      await store.insert(Array.from({ length: 5000 }, (_, i) => ({
        time: (BASE + (at + i) * 1000) * 1000,
        api_name: "GetObject",
        access_key: "alice",
        bucket: `bucket-${i % 50}`,
        object: `photos/2026/${at + i} 日本 🎉.jpg`,
        time_to_response_ns: 1000,
        remote_host: "10.0.0.7",
        request_id: `REQ${at + i}`,
        user_agent: "aws-cli/2.9",
        response_status: "OK",
        response_status_code: 200,
        request_content_length: 0,
        response_content_length: 100,
      })));
    }
    // A `*text*` filter can use no index: the store reads all 100,000 rows. The console's thread (this one)
    // must keep running its timers, requests and streams meanwhile.
    let turns = 0;
    const counting = setInterval(() => turns++, 1);
    const scan = parseLogQuery(new URLSearchParams({ q: "reqinfo", fp: "object:*absent*" }));
    const found = await store.query(scan).finally(() => clearInterval(counting));
    assert.deepEqual(found, []);
    assert.ok(turns > 0, "the thread ran its timers while the store searched");
    assert.equal(await store.count(), ROWS);

    // A store thread that dies fails the search it held; the next call runs on a new thread, same file.
    const held = store.query(scan);
    SqliteThreadStore.killForTests(store);
    await assert.rejects(held, /the audit store's thread stopped/);
    assert.equal(await store.count(), ROWS);
    assert.deepEqual(await store.query(scan), []);
  } finally {
    await store.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a SQLite file that cannot be opened fails the log search's start with SQLite's reason", async () => {
  const dir = await Deno.makeTempDir({ prefix: "deck-logsearch-" });
  try {
    await assert.rejects(
      openAuditStore({ databaseUrl: "", sqlitePath: `${dir}/missing/audit.sqlite` }),
      /unable to open database file/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("log search on PostgreSQL", async (t) => {
  const schema = `deck_ls_test_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const store = await openAuditStore({ databaseUrl: `${PG_URL}?schema=${schema}`, sqlitePath: "" });
  const service = createLogSearchService({ store, auditToken: AUDIT, queryToken: QUERY, retentionMs: 0 });
  try {
    await exercise(t, service, () => store.count());
  } finally {
    await service.close();
    const sql = postgres(PG_URL, { onnotice: () => {} });
    await sql.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await sql.end();
  }
});
