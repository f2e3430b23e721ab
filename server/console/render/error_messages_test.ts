import assert from "node:assert/strict";
import { S3Error } from "../../lib/s3/errors.ts";
import { inLocale, loadLocale } from "./i18n.ts";
import { ApiError, toApiError } from "../http/errors.ts";

await Promise.all([loadLocale("de"), loadLocale("zh-Hans")]);

const noSuchBucket = () =>
  new S3Error("NoSuchBucket", "The specified bucket does not exist", 404, "", "", "b");

Deno.test("storage errors: the console's message in the request's language, the storage's own text the detail", () => {
  const english = toApiError(noSuchBucket()).toBody();
  assert.deepEqual(english, {
    code: 404,
    message: "not found",
    detailedMessage: "The specified bucket does not exist",
  });
  const german = inLocale("de", () => toApiError(noSuchBucket()));
  assert.equal(german.status, 404);
  assert.equal(german.message, "Bucket nicht gefunden");
  assert.equal(german.detail, "The specified bucket does not exist");
  const chinese = inLocale("zh-Hans", () => toApiError(new S3Error("AccessDenied", "Access Denied.", 403)));
  assert.equal(chinese.message, "访问被拒绝");
  assert.equal(chinese.detail, "Access Denied.");
  assert.equal(
    inLocale("de", () => toApiError(new S3Error("SomethingNew", "", 500))).message,
    "Der Speicherserver hat einen Fehler gemeldet",
  );
});

Deno.test("the console's own defaults follow the language too; outside a request they are English", () => {
  assert.equal(ApiError.forbidden().message, "access denied");
  assert.equal(inLocale("de", () => ApiError.unauthorized()).message, "ungültige Sitzung");
  assert.equal(inLocale("zh-Hans", () => toApiError(new Error("boom"))).message, "发生错误，请重试");
});
