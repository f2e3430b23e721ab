import assert from "node:assert/strict";
import { dropHopByHop, formatSetCookie, parseCookieHeader, parseSetCookie } from "./headers.ts";

Deno.test("tenant cookies are re-scoped: the proxy path, HttpOnly, SameSite=Strict, Secure only under TLS", () => {
  const upstream = parseSetCookie("token=abc; Path=/; Domain=tenant.svc; Max-Age=600; Secure; SameSite=Lax");
  assert.deepEqual(upstream, { name: "token", value: "abc", lifetime: ["Max-Age=600"] });
  const renamed = { ...upstream, name: "token-1f" };
  assert.equal(
    formatSetCookie(renamed, "/api/proxy/ns/t/", true),
    "token-1f=abc; Path=/api/proxy/ns/t/; Max-Age=600; HttpOnly; SameSite=Strict; Secure",
  );
  assert.equal(
    formatSetCookie(renamed, "/api/proxy/ns/t/", false),
    "token-1f=abc; Path=/api/proxy/ns/t/; Max-Age=600; HttpOnly; SameSite=Strict",
  );
});

Deno.test("hop-by-hop fields, and those Connection names, stay on their connection", () => {
  const headers = dropHopByHop(
    new Headers({
      connection: "keep-alive, x-private",
      "x-private": "1",
      "keep-alive": "timeout=5",
      te: "trailers",
      "content-type": "text/plain",
    }),
  );
  assert.deepEqual([...headers.keys()], ["content-type"]);
  assert.deepEqual(parseCookieHeader("a=1; token=x=y;  b ="), [["a", "1"], ["token", "x=y"], ["b", ""]]);
});
