import assert from "node:assert/strict";
import { axisScale } from "./panel_data.ts";

Deno.test("chart axes are drawn in the unit their largest value needs, and say it", () => {
  const GB30 = 30e9;
  assert.deepEqual(axisScale(GB30, "bytes"), { factor: 1024 ** 3, suffix: " GiB" }, "a 30 GB drive");
  assert.deepEqual(axisScale(9000, "bytes"), { factor: 1024, suffix: " KiB" });
  assert.deepEqual(axisScale(500, "bytes"), { factor: 1, suffix: " B" });
  assert.deepEqual(axisScale(0, "bytes"), { factor: 1, suffix: " B" }, "an empty chart");
  assert.deepEqual(axisScale(3 * 1024 ** 2, "bytesPerSecond"), { factor: 1024 ** 2, suffix: " MiB/s" });
  assert.deepEqual(axisScale(2500, "number"), { factor: 1000, suffix: "k" });
  assert.deepEqual(axisScale(4.2e9, "number"), { factor: 1e9, suffix: "G" }, "billions never read as bytes");
  assert.deepEqual(axisScale(12, "perSecond"), { factor: 1, suffix: "/s" });
  assert.deepEqual(axisScale(80, "percent"), { factor: 1, suffix: "%" });
  assert.deepEqual(axisScale(7200, "seconds"), { factor: 3600, suffix: " h" });
  assert.deepEqual(axisScale(0.25, "seconds"), { factor: 1e-3, suffix: " ms" });
  assert.deepEqual(axisScale(2.5e6, "nanoseconds"), { factor: 1e6, suffix: " ms" });
});
