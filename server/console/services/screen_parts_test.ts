import assert from "node:assert/strict";
import { ApiError } from "../http/errors.ts";
import { readParts, viewFailures } from "./screen_parts.ts";

const denied = () => Promise.reject(ApiError.forbidden("access denied", "Access Denied."));

Deno.test("parts: a failed part gets its fallback and is named, in the order declared, whatever finished first", async () => {
  let release = () => {};
  const late = new Promise<void>((resolve) => (release = resolve));
  const reading = readParts<{ versioning: boolean; quota: number; size: number }>({
    versioning: [() => late.then(denied), false, "Versioning"],
    quota: [denied, 0, "Quota"],
    size: [() => Promise.resolve(12), 0, "Usage"],
  });
  release();
  const { data, failures } = await reading;
  assert.deepEqual(data, { versioning: false, quota: 0, size: 12 });
  assert.deepEqual(failures.map((f) => [f.key, f.section, f.error.status]), [
    ["versioning", "Versioning", 403],
    ["quota", "Quota", 403],
  ]);
  assert.deepEqual(viewFailures(failures), [
    { section: "Versioning", status: 403, message: "access denied", detail: "Access Denied." },
    { section: "Quota", status: 403, message: "access denied", detail: "Access Denied." },
  ]);
});

Deno.test("parts: a session the storage refused ends the whole view with its 401", async () => {
  const { failures } = await readParts<{ a: number; b: number }>({
    a: [denied, 0, "A"],
    b: [() => Promise.reject(ApiError.unauthorized()), 0, "B"],
  });
  assert.throws(() => viewFailures(failures), (e) => e instanceof ApiError && e.status === 401);
});
