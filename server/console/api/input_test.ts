import assert from "node:assert/strict";
import { fieldLabel, issueSentence } from "./input.ts";

Deno.test("field names in messages read as words, not as JSON keys (issue 18: 'SecretKey:')", () => {
  assert.equal(fieldLabel("secretKey"), "Secret key");
  assert.equal(fieldLabel("targetURL"), "Target URL");
  assert.equal(fieldLabel("quota.amount"), "Quota amount");
  assert.equal(fieldLabel("actions.2.id"), "Actions 3 ID");
  assert.equal(
    issueSentence({ path: "prefix", message: "must be at most 1024 characters" }),
    "Prefix must be at most 1024 characters",
  );
  assert.equal(
    issueSentence({ path: "secretKey", message: "Passwords must be at most 40 characters long" }),
    "Passwords must be at most 40 characters long",
  );
});
