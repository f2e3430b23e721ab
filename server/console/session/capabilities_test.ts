import assert from "node:assert/strict";
import type { ServerCapabilities } from "../../lib/contract/capabilities.ts";
import { missingCapability, plainVersioning, servablePages } from "./capabilities.ts";
import { allowedPages } from "./pages.ts";

const caps = (overrides: Partial<ServerCapabilities>): ServerCapabilities => ({
  endpoint: "http://127.0.0.1:9000",
  server: "",
  adminApi: "yes",
  minioVersion: null,
  metrics: "v2",
  sts: "yes",
  identityModes: ["sts"],
  s3: { versioning: "yes", objectLock: "yes", tagging: "yes", lifecycle: "yes", probedBucket: "b" },
  checkedAt: "2026-11-27T00:00:00.000Z",
  ...overrides,
});

const ALL = allowedPages(["admin:*", "s3:*"]);

Deno.test("a MinIO server keeps every page", () => {
  assert.deepEqual(servablePages(ALL, caps({})), ALL);
});

Deno.test("an unanswered question hides nothing", () => {
  assert.deepEqual(servablePages(ALL, caps({ adminApi: "unknown" })), ALL);
});

Deno.test("without the admin API only the S3 pages and the licence stay", () => {
  const pages = servablePages(ALL, caps({ adminApi: "no" }));
  assert.deepEqual(pages, [
    "/object-browser",
    "/object-browser/:bucket",
    "/object-browser/:bucket/*",
    "/buckets",
    "/buckets/*",
    "/license",
  ]);
});

Deno.test("a page reached directly is told what is missing, with the reason", () => {
  const plain = caps({ adminApi: "no" });
  for (const path of ["/users", "/users/someone", "/settings/region", "/trace", "/dashboard", "/account"]) {
    assert.match(missingCapability(path, plain)?.why ?? "", /does not speak MinIO's admin API/, path);
  }
  assert.match(missingCapability("/watch", plain)?.what ?? "", /notification stream/);
  assert.ok(missingCapability("/buckets/photos/access", plain));
  assert.equal(missingCapability("/buckets/photos/summary", plain), null);
  assert.equal(missingCapability("/object-browser/photos/a b.txt", plain), null);
  // Names that only start like an admin area are not one.
  assert.equal(missingCapability("/usersettings", plain), null);
});

Deno.test("versioning shows on a plain server only when it answered its own document", () => {
  assert.equal(plainVersioning(caps({ adminApi: "no" })), true);
  assert.equal(plainVersioning(caps({ adminApi: "no", s3: { ...caps({}).s3, versioning: "no" } })), false);
  assert.equal(plainVersioning(caps({})), false, "MinIO shows it through distributed mode");
});
