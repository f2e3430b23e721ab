import assert from "node:assert/strict";
import * as s from "./schema.ts";

const MakeBucket = s.object({
  name: s.string({ min: 1, trim: true }),
  versioning: s.optional(s.boolean(), false),
  quota: s.optional(
    s.object({ enabled: s.boolean(), amount: s.optional(s.number({ min: 1, integer: true })) }),
  ),
  tags: s.optional(s.array(s.string()), []),
});

Deno.test("valid input parses with defaults; unknown fields dropped", () => {
  const value = s.parse(MakeBucket, { name: " photos ", extra: 1, tags: null });
  assert.deepEqual(value, { name: "photos", versioning: false, tags: [] });
});

Deno.test("every bad field is reported with its path", () => {
  assert.throws(
    () => s.parse(MakeBucket, { name: "", versioning: "yes", quota: { amount: 0 } }),
    (error) =>
      error instanceof s.SchemaError &&
      JSON.stringify(error.issues.map((i) => i.path)) ===
        JSON.stringify(["name", "versioning", "quota.enabled", "quota.amount"]),
  );
  assert.throws(() => s.parse(MakeBucket, []), s.SchemaError);
  assert.throws(() => s.parse(s.literal("hard", "fifo"), "soft"), /one of hard, fifo/);
});
