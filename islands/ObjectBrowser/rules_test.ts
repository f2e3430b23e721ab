import assert from "node:assert/strict";
// Outside a request the console's texts are English: the functions under test say what the English screen says.
import "../../server/console/render/i18n.ts";
import { endOfDayUtc, retentionRules } from "./ObjectDialogs.tsx";
import { MAX_SHARE_MS, shareDuration } from "./ShareDialogs.tsx";
import { slowHintText } from "./SlowHint.tsx";

Deno.test("retention modal rules (spec 3 §4)", () => {
  const none = retentionRules("", { enabled: true, mode: "", date: "" }, false);
  assert.deepEqual([none.showStatus, none.typeLocked, none.dateEnabled, none.saveDisabled], [
    true,
    false,
    false,
    true,
  ], "no type yet: no date, no save");
  const typed = retentionRules("", { enabled: true, mode: "governance", date: "" }, false);
  assert.deepEqual(
    [typed.dateEnabled, typed.saveDisabled],
    [true, true],
    "a type enables the date; save waits for it",
  );
  const ready = retentionRules("", { enabled: true, mode: "compliance", date: "2030-01-02" }, false);
  assert.deepEqual([ready.saveDisabled, ready.action], [false, "set"]);
  assert.equal(
    retentionRules("", { enabled: true, mode: "compliance", date: "2030-01-02" }, true).saveDisabled,
    true,
    "not while saving",
  );
  const compliance = retentionRules(
    "compliance",
    { enabled: true, mode: "compliance", date: "2030-01-02" },
    false,
  );
  assert.deepEqual(
    [compliance.showStatus, compliance.typeLocked],
    [false, true],
    "compliance: no switch, type locked",
  );
  const governanceOff = retentionRules("governance", {
    enabled: false,
    mode: "governance",
    date: "2030-01-02",
  }, false);
  assert.deepEqual([
    governanceOff.showStatus,
    governanceOff.typeLocked,
    governanceOff.dateEnabled,
    governanceOff.action,
  ], [true, true, false, "remove"]);
  assert.equal(endOfDayUtc("2030-01-02"), "2030-01-02T23:59:59Z");
});

Deno.test("share expiry rules (spec 3 §5): the end of the chosen day, in the future, at most 7 days ahead", () => {
  const now = new Date("2030-01-10T12:00:00").getTime();
  assert.deepEqual(shareDuration("2030-01-09", now), {
    error: "Selected date must be greater than current time.",
  });
  assert.deepEqual(shareDuration("2030-01-10", now), { ms: new Date("2030-01-10T23:59:59").getTime() - now });
  assert.deepEqual(shareDuration("2030-01-17", now), {
    error: "You can share a file only for less than 7 days.",
  });
  assert.ok("ms" in shareDuration("2030-01-16", now));
  assert.equal(MAX_SHARE_MS, 604800000);
});

Deno.test("slow-operation hints at 3 s and 6 s (spec 3 §2.4)", () => {
  assert.equal(slowHintText(0), "Loading...");
  assert.equal(slowHintText(2), "Loading...");
  assert.equal(slowHintText(3), "This operation is taking longer than expected...");
  assert.equal(slowHintText(7), "This operation is taking longer than expected... (7s)");
});
