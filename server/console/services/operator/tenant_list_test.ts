import assert from "node:assert/strict";
import { tokenNamespace } from "./tenant_list.ts";

const jwt = (claims: unknown) =>
  [{ alg: "RS256" }, claims, "signature"].map((part) =>
    typeof part === "string"
      ? part
      : new TextEncoder().encode(JSON.stringify(part)).toBase64({ alphabet: "base64url", omitPadding: true })
  ).join(".");

Deno.test("a service-account token names the namespace worth asking, in each form Kubernetes issues", () => {
  assert.equal(tokenNamespace(jwt({ "kubernetes.io/serviceaccount/namespace": "legacy-ns" })), "legacy-ns");
  assert.equal(tokenNamespace(jwt({ "kubernetes.io": { namespace: "bound-ns" } })), "bound-ns");
  assert.equal(tokenNamespace(jwt({ sub: "system:serviceaccount:from-sub:viewer" })), "from-sub");
  assert.equal(tokenNamespace(jwt({ sub: "jane@example.com" })), null, "a user, not a service account");
  assert.equal(tokenNamespace("not-a-jwt"), null);
  assert.equal(tokenNamespace("a.%%%.c"), null);
});
