import assert from "node:assert/strict";
import { LoginThrottle } from "./login_throttle.ts";

Deno.test("after three failures each attempt waits twice as long; success resets", () => {
  let now = 1_000_000;
  const throttle = new LoginThrottle(() => now);
  for (let i = 0; i < 3; i++) {
    assert.equal(throttle.waitFor("10.0.0.1"), 0);
    throttle.recordFailure("10.0.0.1");
  }
  assert.equal(throttle.waitFor("10.0.0.1"), 1000);
  assert.equal(throttle.waitFor("10.0.0.2"), 0, "other addresses are not affected");
  now += 1000;
  assert.equal(throttle.waitFor("10.0.0.1"), 0);
  throttle.recordFailure("10.0.0.1");
  assert.equal(throttle.waitFor("10.0.0.1"), 2000);
  throttle.recordSuccess("10.0.0.1");
  assert.equal(throttle.waitFor("10.0.0.1"), 0);
});
