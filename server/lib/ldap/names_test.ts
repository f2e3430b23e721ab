import assert from "node:assert/strict";
import { dnKey, escapeDnValue, escapeFilterValue, fillDn, fillFilter, isUnder, parsesAsDn } from "./names.ts";

Deno.test("filter values are escaped (RFC 4515): a name cannot widen the search", () => {
  assert.equal(escapeFilterValue("*"), "\\2a");
  assert.equal(escapeFilterValue("a)(uid=*"), "a\\29\\28uid=\\2a");
  assert.equal(escapeFilterValue("back\\slash\0"), "back\\5cslash\\00");
  assert.equal(
    fillFilter("(&(uid=%s)(member=%d))", "x*", "uid=x\\2A,dc=t"),
    "(&(uid=x\\2a)(member=uid=x\\5c2A,dc=t))",
  );
});

Deno.test("DN values are escaped (RFC 4514)", () => {
  assert.equal(escapeDnValue("dana+ops, (eu)*"), "dana\\+ops\\, (eu)*");
  assert.equal(escapeDnValue(" #lead"), "\\ #lead");
  assert.equal(escapeDnValue("trail "), "trail\\ ");
  assert.equal(fillDn("uid=%s,ou=people", "a,b=c"), "uid=a\\,b\\=c,ou=people");
});

Deno.test("DNs compare in one form whichever escaping the directory answers with", () => {
  assert.equal(
    dnKey("uid=dana\\2Bops\\2C (eu)*,ou=People, DC=deck,dc=test"),
    dnKey("UID=dana\\+ops\\, (eu)*,ou=people,dc=deck,dc=test"),
  );
  assert.equal(dnKey("cn=J\\C3\\BCrgen,dc=t"), "cn=jürgen,dc=t");
  assert.ok(isUnder("uid=a,ou=people,dc=t", "OU=People,dc=t"));
  assert.ok(!isUnder("uid=a,ou=people2,dc=t", "ou=people,dc=t"));
  assert.ok(parsesAsDn("uid=alice,dc=t"));
  assert.ok(!parsesAsDn("alice"));
  assert.throws(() => dnKey("uid=a,"));
});
