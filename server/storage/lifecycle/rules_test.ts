import assert from "node:assert/strict";
import type { LifecycleRule } from "../../lib/s3/ops/lifecycle.ts";
import { dueActions, dueAfterDays, upcomingAction } from "./rules.ts";
import type { ObjectRecord, VersionRecord } from "../core/records.ts";

const version = (id: string, lastModified: string, extra: Partial<VersionRecord> = {}): VersionRecord => ({
  versionId: id,
  size: 10,
  etag: "e",
  lastModified,
  userMetadata: {},
  ...extra,
});
const rule = (fields: Partial<LifecycleRule>): LifecycleRule => ({ id: "r", status: "Enabled", ...fields });
const summary = (record: ObjectRecord, rules: LifecycleRule[], now: string) =>
  dueActions(record, rules, Date.parse(now)).map((a) => `${a.kind}:${a.version.versionId}`);

Deno.test("days end at the first midnight UTC after the modification time plus the days (MinIO's arithmetic)", () => {
  assert.equal(
    new Date(dueAfterDays(Date.parse("2020-05-21T13:42:50Z"), 1)).toISOString(),
    "2020-05-23T00:00:00.000Z",
  );
  assert.equal(
    new Date(dueAfterDays(Date.parse("2020-05-21T00:00:00Z"), 1)).toISOString(),
    "2020-05-23T00:00:00.000Z",
  );
  assert.equal(dueAfterDays(1234, 0), 1234);
  // A shortened day (tests): boundaries are multiples of it.
  assert.equal(dueAfterDays(10_500, 1, 1000), 12_000);
});

Deno.test("expiration wins over a transition due as well; a transition alone moves the latest version once", () => {
  const record = { key: "a", versions: [version("v1", "2020-01-01T10:00:00Z")] };
  const both = [rule({ expiration: { days: 1 }, transition: { days: 1, storageClass: "WARM" } })];
  assert.deepEqual(summary(record, both, "2020-01-05T00:00:00Z"), ["expire-current:v1"]);
  assert.deepEqual(summary(record, both, "2020-01-02T23:59:59Z"), []);
  const move = [rule({ transition: { days: 1, storageClass: "WARM" } })];
  assert.deepEqual(summary(record, move, "2020-01-05T00:00:00Z"), ["transition:v1"]);
  const moved = {
    key: "a",
    versions: [version("v1", "2020-01-01T10:00:00Z", { transition: { tier: "WARM", object: "x" } })],
  };
  assert.deepEqual(summary(moved, move, "2020-01-05T00:00:00Z"), []);
});

Deno.test("noncurrent versions count from their successor and NewerNoncurrentVersions keeps the newest ones", () => {
  const record = {
    key: "k",
    versions: [
      version("v4", "2020-01-10T00:00:00Z"),
      version("v3", "2020-01-09T00:00:00Z"),
      version("v2", "2020-01-03T00:00:00Z"),
      version("v1", "2020-01-02T00:00:00Z"),
    ],
  };
  // v3 became noncurrent on the 10th, v2 on the 9th, v1 on the 3rd: on the 11th only v1 has been noncurrent 2 days.
  assert.deepEqual(
    summary(record, [rule({ noncurrentExpiration: { noncurrentDays: 2 } })], "2020-01-11T12:00:00Z"),
    ["expire-version:v1"],
  );
  assert.deepEqual(
    summary(
      record,
      [rule({ noncurrentExpiration: { noncurrentDays: 1, newerNoncurrentVersions: 2 } })],
      "2020-02-01T00:00:00Z",
    ),
    ["expire-version:v1"],
  );
  assert.deepEqual(
    summary(
      record,
      [rule({ noncurrentExpiration: { noncurrentDays: 1, newerNoncurrentVersions: 5 } })],
      "2020-02-01T00:00:00Z",
    ),
    [],
  );
});

Deno.test("filters: prefix, every tag, size bounds, disabled rules; only a lone delete marker is expired", () => {
  const tagged = {
    key: "logs/a",
    versions: [version("v1", "2020-01-01T00:00:00Z", { tags: { a: "1", b: "2" }, size: 500 })],
  };
  const at = "2021-01-01T00:00:00Z";
  const exp = { days: 1 };
  assert.deepEqual(
    summary(tagged, [
      rule({ prefix: "logs/", tags: [{ key: "a", value: "1" }, { key: "b", value: "2" }], expiration: exp }),
    ], at),
    ["expire-current:v1"],
  );
  assert.deepEqual(
    summary(
      tagged,
      [rule({ tags: [{ key: "a", value: "1" }, { key: "c", value: "3" }], expiration: exp })],
      at,
    ),
    [],
  );
  assert.deepEqual(summary(tagged, [rule({ prefix: "other/", expiration: exp })], at), []);
  assert.deepEqual(summary(tagged, [rule({ sizeGreaterThan: 500, expiration: exp })], at), []);
  assert.deepEqual(summary(tagged, [rule({ sizeLessThan: 501, expiration: exp })], at), [
    "expire-current:v1",
  ]);
  assert.deepEqual(summary(tagged, [rule({ status: "Disabled", expiration: exp })], at), []);
  const marker = (n: number) => ({
    key: "m",
    versions: [
      version("dm", "2020-01-01T00:00:00Z", { deleteMarker: true }),
      ...(n > 1 ? [version("v1", "2019-01-01T00:00:00Z")] : []),
    ],
  });
  const markers = [rule({ expiration: { expiredObjectDeleteMarker: true } })];
  assert.deepEqual(summary(marker(1), markers, at), ["expire-version:dm"]);
  assert.deepEqual(summary(marker(2), markers, at), []);
});

Deno.test("the upcoming action (prediction headers): the earliest of any rule, expiration on a tie, nothing once moved", () => {
  const v1 = version("v1", "2020-05-21T13:42:50Z");
  const record = { key: "logs/a", versions: [v1] };
  const next = (rules: LifecycleRule[], r: ObjectRecord = record, v: VersionRecord = r.versions[0]) => {
    const found = upcomingAction(r, v, rules);
    return found && `${found.kind} ${new Date(found.due).toISOString()} ${found.rule}`;
  };
  const named = (id: string, fields: Partial<LifecycleRule>) => ({ ...rule(fields), id });
  // Not due yet, still announced; the earliest rule wins.
  assert.equal(
    next([
      named("late", { expiration: { days: 30 } }),
      named("soon", { prefix: "logs/", expiration: { days: 1 } }),
    ]),
    "expiration 2020-05-23T00:00:00.000Z soon",
  );
  assert.equal(
    next([named("dated", { expiration: { date: "2030-01-01T00:00:00Z" } })]),
    "expiration 2030-01-01T00:00:00.000Z dated",
  );
  // A transition before the expiry is what comes next; at the same time the expiry wins.
  assert.equal(
    next([
      named("exp", { expiration: { days: 30 } }),
      named("move", { transition: { days: 1, storageClass: "WARM" } }),
    ]),
    "transition 2020-05-23T00:00:00.000Z move",
  );
  assert.equal(
    next([
      named("move", { transition: { days: 2, storageClass: "WARM" } }),
      named("exp", { expiration: { days: 2 } }),
    ]),
    "expiration 2020-05-24T00:00:00.000Z exp",
  );
  // Moved or encrypted versions are not transitioned, so only their expiry is announced.
  const moved = {
    key: "logs/a",
    versions: [version("v1", "2020-05-21T13:42:50Z", { transition: { tier: "WARM", object: "x" } })],
  };
  const both = [
    named("move", { transition: { days: 1, storageClass: "WARM" } }),
    named("exp", { expiration: { days: 30 } }),
  ];
  assert.equal(next(both, moved), "expiration 2020-06-21T00:00:00.000Z exp");
  assert.equal(next([both[0]], moved), null);
  const sealed = {
    key: "logs/a",
    versions: [version("v1", "2020-05-21T13:42:50Z", { sse: {} as VersionRecord["sse"] })],
  };
  assert.equal(next([both[0]], sealed), null);
  // Filters and disabled rules; noncurrent versions from their successor's time; delete markers never.
  assert.equal(
    next([
      named("other", { prefix: "other/", expiration: { days: 1 } }),
      named("off", { status: "Disabled", expiration: { days: 1 } }),
    ]),
    null,
  );
  const versions = {
    key: "k",
    versions: [version("v2", "2020-06-01T08:00:00Z"), version("v1", "2020-01-01T00:00:00Z")],
  };
  const noncurrent = [
    named("nc", { noncurrentExpiration: { noncurrentDays: 7 } }),
    named("cur", { expiration: { days: 100 } }),
  ];
  assert.equal(next(noncurrent, versions, versions.versions[1]), "expiration 2020-06-09T00:00:00.000Z nc");
  assert.equal(next(noncurrent, versions, versions.versions[0]), "expiration 2020-09-10T00:00:00.000Z cur");
  // Keeping NewerNoncurrentVersions depends on the other versions: MinIO announces nothing for it.
  assert.equal(
    next(
      [named("keep", { noncurrentExpiration: { noncurrentDays: 7, newerNoncurrentVersions: 1 } })],
      versions,
      versions.versions[1],
    ),
    null,
  );
  assert.equal(
    next(
      [named("nct", { noncurrentTransition: { noncurrentDays: 0, storageClass: "WARM" } })],
      versions,
      versions.versions[1],
    ),
    "transition 2020-06-01T08:00:00.000Z nct",
  );
  const marker = { key: "m", versions: [version("dm", "2020-01-01T00:00:00Z", { deleteMarker: true })] };
  assert.equal(next([named("exp", { expiration: { days: 1 } })], marker), null);
});
