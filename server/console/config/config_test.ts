import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "./config.ts";
import { parseDuration } from "../../lib/http/duration.ts";

Deno.test("defaults: console on 0.0.0.0:9090, embedded storage on 127.0.0.1:9000 in ./data", () => {
  const config = loadConfig({});
  assert.deepEqual(config.hostname, "0.0.0.0");
  assert.deepEqual(config.port, 9090);
  assert.deepEqual(config.minioServer, null);
  assert.deepEqual(config.storage, { hostname: "127.0.0.1", port: 9000, certsDir: null });
  assert.deepEqual(config.minioCaFile, null);
  assert.deepEqual(config.dataDir, "./data");
  assert.deepEqual(config.sessionSeconds, 12 * 3600);
  assert.deepEqual(config.subpath, "/");
  assert.deepEqual(config.root, null);
  assert.deepEqual(config.tls, null);
});

Deno.test("flags win over environment", () => {
  const config = loadConfig({ CONSOLE_PORT: "8000" }, ["--port", "7000", "--subpath=console"]);
  assert.deepEqual(config.port, 7000);
  assert.deepEqual(config.subpath, "/console/");
});

Deno.test("a bad value names the setting", () => {
  const cases: [Record<string, string>, string[], string][] = [
    [{ CONSOLE_PORT: "http" }, [], "CONSOLE_PORT"],
    [{ CONSOLE_MINIO_SERVER: "minio:9000" }, [], "CONSOLE_MINIO_SERVER"],
    [{ CONSOLE_MINIO_SERVER: "http://minio:9000/path" }, [], "CONSOLE_MINIO_SERVER"],
    [{ CONSOLE_STORAGE_ADDRESS: "9000" }, [], "CONSOLE_STORAGE_ADDRESS"],
    [{ CONSOLE_SESSION_DURATION: "forever" }, [], "CONSOLE_SESSION_DURATION"],
    [{ CONSOLE_SESSION_DURATION: "1m" }, [], "CONSOLE_SESSION_DURATION"],
    [{ MINIO_ROOT_USER: "admin" }, [], "MINIO_ROOT_PASSWORD"],
    [{ MINIO_ROOT_USER: "admin", MINIO_ROOT_PASSWORD: "short" }, [], "MINIO_ROOT_PASSWORD"],
    [{ CONSOLE_PBKDF_SALT: "salt" }, [], "CONSOLE_PBKDF_PASSPHRASE"],
    [{ CONSOLE_TLS_CERT: "a.crt" }, [], "CONSOLE_TLS_KEY"],
    [
      { CONSOLE_STORAGE_CERTS_DIR: "/c", CONSOLE_MINIO_SERVER: "https://minio:9000" },
      [],
      "CONSOLE_STORAGE_CERTS_DIR",
    ],
    [{ CONSOLE_SUBPATH: "/a b" }, [], "CONSOLE_SUBPATH"],
    [{ CONSOLE_IDP_URL: "https://idp" }, [], "CONSOLE_IDP_URL"],
    [
      {
        CONSOLE_IDP_URL: "https://idp",
        CONSOLE_IDP_CLIENT_ID: "deck",
        CONSOLE_IDP_CALLBACK: "https://deck/oauth_callback",
        CONSOLE_IDP_AUTO_REDIRECT: "sometimes",
      },
      [],
      "CONSOLE_IDP_AUTO_REDIRECT",
    ],
    [{}, ["--nope", "1"], "--nope"],
  ];
  for (const [env, args, setting] of cases) {
    assert.throws(
      () => loadConfig(env, args),
      (error) => error instanceof ConfigError && error.setting === setting,
    );
  }
});

Deno.test("the storage's certs dir and the storage CA file are read as given", () => {
  const config = loadConfig({ CONSOLE_MINIO_CA_FILE: "/etc/deck/minio-ca.crt" }, [
    "--storage-certs-dir",
    "/etc/deck/storage/",
  ]);
  assert.equal(config.storage.certsDir, "/etc/deck/storage");
  assert.equal(config.minioCaFile, "/etc/deck/minio-ca.crt");
});

Deno.test("certs dir means public.crt and private.key", () => {
  assert.deepEqual(loadConfig({}, ["--certs-dir", "/etc/deck/"]).tls, {
    certFile: "/etc/deck/public.crt",
    keyFile: "/etc/deck/private.key",
  });
});

Deno.test("Go-style durations", () => {
  assert.deepEqual(parseDuration("12h"), 43200);
  assert.deepEqual(parseDuration("1h30m"), 5400);
  assert.deepEqual(parseDuration("604800000ms"), 604800);
  assert.deepEqual(parseDuration("90"), 90);
  assert.deepEqual(parseDuration("h"), null);
  assert.deepEqual(parseDuration("1x"), null);
  assert.deepEqual(parseDuration(""), null);
});

Deno.test("log search: built-in by default, external when CONSOLE_LOG_QUERY_URL is set, off on request", () => {
  const builtin = loadConfig({}).logSearch;
  assert.equal(builtin.queryUrl, null);
  assert.deepEqual(builtin.builtin?.address, { hostname: "127.0.0.1", port: 0 }, "a free port by default");
  assert.deepEqual(
    loadConfig({ CONSOLE_LOG_SEARCH_ADDRESS: "0.0.0.0:9091" }).logSearch.builtin?.address,
    { hostname: "0.0.0.0", port: 9091 },
  );
  assert.equal(builtin.builtin?.retentionSeconds, 30 * 86400);
  const external =
    loadConfig({ CONSOLE_LOG_QUERY_URL: "http://logsearch:8080/", CONSOLE_LOG_QUERY_AUTH_TOKEN: "t" })
      .logSearch;
  assert.deepEqual([external.queryUrl, external.queryToken, external.builtin], [
    "http://logsearch:8080",
    "t",
    null,
  ]);
  assert.equal(loadConfig({ CONSOLE_LOG_SEARCH: "off" }).logSearch.builtin, null);
  assert.equal(loadConfig({ CONSOLE_LOG_SEARCH_RETENTION: "0" }).logSearch.builtin?.retentionSeconds, 0);
  for (
    const [env, setting] of [
      [{ CONSOLE_LOG_SEARCH: "maybe" }, "CONSOLE_LOG_SEARCH"],
      [{ CONSOLE_LOG_SEARCH_DATABASE_URL: "mysql://x" }, "CONSOLE_LOG_SEARCH_DATABASE_URL"],
      [{ CONSOLE_LOG_SEARCH_RETENTION: "a while" }, "CONSOLE_LOG_SEARCH_RETENTION"],
      [{ CONSOLE_LOG_QUERY_URL: "logsearch:8080" }, "CONSOLE_LOG_QUERY_URL"],
    ] as const
  ) {
    assert.throws(
      () => loadConfig(env),
      (error) => error instanceof ConfigError && error.setting === setting,
    );
  }
});

Deno.test("lifecycle scanner: every 5 minutes with 24-hour days by default; a shorter day for tests; bad values named", () => {
  assert.deepEqual(loadConfig({}).lifecycle, { intervalMs: 300_000, dayMs: 86_400_000 });
  assert.deepEqual(
    loadConfig({ CONSOLE_LIFECYCLE_SCAN_INTERVAL: "0" }, ["--lifecycle-day", "1s"]).lifecycle,
    { intervalMs: 0, dayMs: 1000 },
  );
  for (
    const [setting, value] of [["CONSOLE_LIFECYCLE_SCAN_INTERVAL", "10ms"], ["CONSOLE_LIFECYCLE_DAY", "2d"], [
      "CONSOLE_LIFECYCLE_DAY",
      "0",
    ], ["CONSOLE_LIFECYCLE_SCAN_INTERVAL", "soon"]]
  ) {
    assert.throws(
      () => loadConfig({ [setting]: value }),
      (error) => error instanceof ConfigError && error.setting === setting,
    );
  }
});
