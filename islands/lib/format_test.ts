import assert from "node:assert/strict";
import {
  calculateCapacity,
  formatBytes,
  formatDate,
  formatDateTime,
  formatDuration,
  formatNumber,
  formatTimeOfDay,
  GIB,
  largestExactUnit,
  toBytes,
} from "./format.ts";

Deno.test("binary sizes use factor 1024 and the spec's units", () => {
  assert.equal(formatBytes(0), "0 B");
  assert.equal(formatBytes(1023), "1023 B");
  assert.equal(formatBytes(1024), "1 KiB");
  assert.equal(formatBytes(1536), "1.5 KiB");
  assert.equal(formatBytes(GIB), "1 GiB");
  assert.equal(formatBytes(2147483648), "2 GiB");
  assert.equal(formatBytes(1024 ** 8), "1 YiB");
  assert.equal(formatNumber(1234567), "1,234,567");
});

Deno.test("durations follow the display rules", () => {
  const day = 86400;
  assert.equal(formatDuration(400 * day), "1 year");
  assert.equal(formatDuration(45 * day), "1 month 15 days");
  assert.equal(formatDuration(60 * day), "2 months");
  assert.equal(formatDuration(30 * day), "4 weeks");
  assert.equal(formatDuration(7 * day), "1 week");
  assert.equal(formatDuration(6 * day + 5), "6 days");
  assert.equal(formatDuration(1 * day), "1 day");
  assert.equal(formatDuration(7200), "2 hours");
  assert.equal(formatDuration(125), "2 minutes");
  assert.equal(formatDuration(1), "1 second");
});

Deno.test("server capacity calculation and its three messages", () => {
  const plan = calculateCapacity(4, 16 * 1024 * GIB);
  assert.ok("disksPerNode" in plan, plan.error);
  assert.equal(plan.disksPerNode, 16);
  assert.equal(plan.diskSize, 256 * GIB);
  assert.equal(plan.totalDisks, 64);
  const small = calculateCapacity(2, 100 * GIB);
  assert.equal(small.error, "");
  assert.equal(calculateCapacity("four", 100).error, "Some provided data is invalid, please try again.");
  assert.equal(calculateCapacity(0, 100 * GIB).error, "We were not able to allocate this server.");
  assert.equal(
    calculateCapacity(4, 8 * GIB).error,
    "Disk Size with this combination would be less than 1Gi, please try another combination",
  );
});

Deno.test("quota sizes show in the largest exact unit and convert back", () => {
  assert.deepEqual(largestExactUnit(1099511627776), { amount: 1, unit: "TiB" });
  assert.deepEqual(largestExactUnit(1536 * 1024 * 1024), { amount: 1536, unit: "MiB" });
  assert.deepEqual(largestExactUnit(1000), { amount: 1000, unit: "B" });
  assert.equal(toBytes(2, "GiB"), 2147483648);
});

Deno.test("every instant reads the same way: ISO order, to the second, in UTC", () => {
  assert.equal(formatDateTime("2026-03-07T14:05:09.123Z"), "2026-03-07 14:05:09 UTC");
  assert.equal(formatDateTime("2026-03-07T16:05:09+02:00"), "2026-03-07 14:05:09 UTC");
  assert.equal(formatDateTime(Date.UTC(2026, 2, 7, 14, 5, 9)), "2026-03-07 14:05:09 UTC");
  assert.equal(
    formatDateTime("2022-08-05 18:49:03 +0000 UTC"),
    "2022-08-05 18:49:03 UTC",
    "Go's time.String()",
  );
  assert.equal(formatDateTime(""), "");
  assert.equal(formatDateTime("soon"), "soon", "text that is not a time is kept");
  assert.equal(formatDate("2026-12-31T23:59:59Z"), "2026-12-31");
  assert.equal(formatTimeOfDay("2026-03-07T14:05:09Z"), "14:05");
});
