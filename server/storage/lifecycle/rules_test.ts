import assert from "node:assert/strict";
import type { LifecycleRule } from "../../s3/ops/lifecycle.ts";
import type { ObjectRecord, VersionRecord } from "../fs/store.ts";
import { dueActions, dueAfterDays } from "./rules.ts";

const version = (id: string, lastModified: string, extra: Partial<VersionRecord> = {}): VersionRecord => ({ versionId: id, size: 10, etag: "e", lastModified, userMetadata: {}, ...extra });
const rule = (fields: Partial<LifecycleRule>): LifecycleRule => ({ id: "r", status: "Enabled", ...fields });
const summary = (record: ObjectRecord, rules: LifecycleRule[], now: string) => dueActions(record, rules, Date.parse(now)).map((a) => `${a.kind}:${a.version.versionId}`);

Deno.test("days end at the first midnight UTC after the modification time plus the days (MinIO's arithmetic)", () => {
  assert.equal(new Date(dueAfterDays(Date.parse("2020-05-21T13:42:50Z"), 1)).toISOString(), "2020-05-23T00:00:00.000Z");
  assert.equal(new Date(dueAfterDays(Date.parse("2020-05-21T00:00:00Z"), 1)).toISOString(), "2020-05-23T00:00:00.000Z");
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
  const moved = { key: "a", versions: [version("v1", "2020-01-01T10:00:00Z", { transition: { tier: "WARM", object: "x" } })] };
  assert.deepEqual(summary(moved, move, "2020-01-05T00:00:00Z"), []);
});

Deno.test("noncurrent versions count from their successor and NewerNoncurrentVersions keeps the newest ones", () => {
  const record = {
    key: "k",
    versions: [version("v4", "2020-01-10T00:00:00Z"), version("v3", "2020-01-09T00:00:00Z"), version("v2", "2020-01-03T00:00:00Z"), version("v1", "2020-01-02T00:00:00Z")],
  };
  // v3 became noncurrent on the 10th, v2 on the 9th, v1 on the 3rd: on the 11th only v1 has been noncurrent 2 days.
  assert.deepEqual(summary(record, [rule({ noncurrentExpiration: { noncurrentDays: 2 } })], "2020-01-11T12:00:00Z"), ["expire-version:v1"]);
  assert.deepEqual(summary(record, [rule({ noncurrentExpiration: { noncurrentDays: 1, newerNoncurrentVersions: 2 } })], "2020-02-01T00:00:00Z"), ["expire-version:v1"]);
  assert.deepEqual(summary(record, [rule({ noncurrentExpiration: { noncurrentDays: 1, newerNoncurrentVersions: 5 } })], "2020-02-01T00:00:00Z"), []);
});

Deno.test("filters: prefix, every tag, size bounds, disabled rules; only a lone delete marker is expired", () => {
  const tagged = { key: "logs/a", versions: [version("v1", "2020-01-01T00:00:00Z", { tags: { a: "1", b: "2" }, size: 500 })] };
  const at = "2021-01-01T00:00:00Z";
  const exp = { days: 1 };
  assert.deepEqual(summary(tagged, [rule({ prefix: "logs/", tags: [{ key: "a", value: "1" }, { key: "b", value: "2" }], expiration: exp })], at), ["expire-current:v1"]);
  assert.deepEqual(summary(tagged, [rule({ tags: [{ key: "a", value: "1" }, { key: "c", value: "3" }], expiration: exp })], at), []);
  assert.deepEqual(summary(tagged, [rule({ prefix: "other/", expiration: exp })], at), []);
  assert.deepEqual(summary(tagged, [rule({ sizeGreaterThan: 500, expiration: exp })], at), []);
  assert.deepEqual(summary(tagged, [rule({ sizeLessThan: 501, expiration: exp })], at), ["expire-current:v1"]);
  assert.deepEqual(summary(tagged, [rule({ status: "Disabled", expiration: exp })], at), []);
  const marker = (n: number) => ({ key: "m", versions: [version("dm", "2020-01-01T00:00:00Z", { deleteMarker: true }), ...(n > 1 ? [version("v1", "2019-01-01T00:00:00Z")] : [])] });
  const markers = [rule({ expiration: { expiredObjectDeleteMarker: true } })];
  assert.deepEqual(summary(marker(1), markers, at), ["expire-version:dm"]);
  assert.deepEqual(summary(marker(2), markers, at), []);
});
