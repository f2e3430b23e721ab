import assert from "node:assert/strict";
import { allowActionsOf, allowedPages, isPathAllowed } from "./pages.ts";

Deno.test("consoleAdmin (admin:* and s3:*) sees every console page", () => {
  const pages = allowedPages(["admin:*", "kms:*", "s3:*"]);
  for (
    const page of [
      "/dashboard",
      "/metrics",
      "/buckets",
      "/users",
      "/users/:userName+",
      "/groups",
      "/policies",
      "/settings",
      "/trace",
      "/account",
      "/account/change-password",
      "/object-browser",
      "/license",
    ]
  ) {
    assert.ok(pages.includes(page), page);
  }
  // The original never granted them (api-index §12.21); the spec (S1, S2) lists them, and the spec wins.
  assert.ok(
    pages.includes("/webhook/logger") && pages.includes("/webhook/audit"),
    "webhook views go with Settings",
  );
});

Deno.test("a readonly user sees only the always-granted pages; literal matching only", () => {
  const pages = allowedPages(["s3:GetBucketLocation", "s3:GetObject"]);
  assert.deepEqual(pages.filter((p) => !p.startsWith("/object-browser")), [
    "/account",
    "/account/change-password",
    "/license",
  ]);
  assert.ok(!allowedPages(["s3:Get*", "admin:Server*"]).includes("/dashboard"), "patterns grant nothing");
  assert.ok(allowedPages(["admin:ServerInfo"]).includes("/dashboard"));
});

Deno.test("SSO sessions get no change-password page", () => {
  assert.ok(!allowedPages(["admin:*"], { sso: true }).includes("/account/change-password"));
});

Deno.test("concrete paths match granted patterns (user names may contain slashes)", () => {
  const pages = allowedPages(["admin:*", "s3:*"]);
  assert.ok(isPathAllowed(pages, "/users/team/alice"));
  assert.ok(isPathAllowed(pages, "/buckets/photos/summary"));
  assert.ok(isPathAllowed(pages, "/object-browser/photos/a/b"));
  assert.ok(!isPathAllowed(allowedPages([]), "/users"));
  assert.ok(isPathAllowed(pages, "/webhook/logger"));
  assert.ok(!isPathAllowed(pages, "/webhook/other"));
});

Deno.test("Allow actions come from Allow statements only", () => {
  const policy = {
    Version: "2012-10-17",
    Statement: [
      { Effect: "Allow", Action: ["s3:GetObject", "admin:ServerInfo"], Resource: ["arn:aws:s3:::*"] },
      { Effect: "Deny", Action: ["admin:CreateUser"] },
      { Effect: "Allow", Action: "s3:PutObject" },
    ],
  };
  assert.deepEqual(allowActionsOf(policy).sort(), ["admin:ServerInfo", "s3:GetObject", "s3:PutObject"]);
  assert.deepEqual(allowActionsOf(null), []);
});
