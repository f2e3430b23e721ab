import assert from "node:assert/strict";
import { bucketAccessOf, presetPolicy, readAccessRules, setAccessRule } from "./bucket_access.ts";
import { CANNED_POLICIES } from "./actions.ts";
import { evaluate, evaluateIntersection } from "./evaluate.ts";
import { normalizePolicy } from "./types.ts";
import { checkPolicy } from "./validate.ts";

const named = (name: string, value: unknown) => ({ name, policy: normalizePolicy(value) });

Deno.test("syntax errors point at their line", () => {
  const text =
    `{\n  "Version": "2012-10-17",\n  "Statement": [\n    { "Effect": "Allow", "Action": ["s3:GetObject"] "Resource": "*" }\n  ]\n}`;
  const { problems } = checkPolicy(text);
  assert.equal(problems.length, 1);
  assert.equal(problems[0].line, 4);
});

Deno.test("grammar errors point at the offending value", () => {
  const text = [
    "{",
    '  "Version": "2012-10-17",',
    '  "Statement": [{',
    '    "Effect": "Permit",',
    '    "Action": ["s3:GetObject", "s3:FlyAway"],',
    '    "Resource": ["bucket/*"],',
    '    "Condition": {"StringSorta": {"s3:prefix": "a"}}',
    "  }]",
    "}",
  ].join("\n");
  const lines = checkPolicy(text).problems.map((p) => [p.line, p.message]);
  assert.deepEqual(lines.map((l) => l[0]), [4, 5, 6, 7]);
  assert.match(String(lines[1][1]), /unknown action "s3:FlyAway"/);
  assert.equal(checkPolicy(JSON.stringify(CANNED_POLICIES.consoleAdmin)).problems.length, 0);
  assert.equal(checkPolicy('{"Statement": []}').problems.length, 2, "missing Version, empty Statement");
});

Deno.test("bucket policies need a Principal and resources inside the bucket", () => {
  const ok = JSON.stringify({
    Version: "2012-10-17",
    Statement: [{ Effect: "Allow", Principal: "*", Action: "s3:GetObject", Resource: "arn:aws:s3:::b/*" }],
  });
  assert.equal(checkPolicy(ok, { bucketPolicy: true, bucket: "b" }).problems.length, 0);
  assert.equal(checkPolicy(ok, { bucketPolicy: true, bucket: "other" }).problems.length, 1);
  assert.equal(checkPolicy(ok).problems.length, 1, "Principal is not allowed in IAM policies");
});

Deno.test("resources name objects in any script, spaces included; a bucket name has no spaces", () => {
  const policy = (resource: string) =>
    JSON.stringify({
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: "s3:GetObject", Resource: resource }],
    });
  assert.deepEqual(checkPolicy(policy("arn:aws:s3:::b/Документы/héllo wörld ✓.txt")).problems, []);
  assert.equal(
    evaluate([named("one", JSON.parse(policy("arn:aws:s3:::b/报告 2026.pdf")))], {
      action: "s3:GetObject",
      bucket: "b",
      key: "报告 2026.pdf",
    }).allowed,
    true,
  );
  assert.equal(checkPolicy(policy("arn:aws:s3:::my bucket/x")).problems.length, 1);
});

Deno.test("Deny wins, root is allowed unless denied, wildcards and the bucket-level quirk", () => {
  const policies = [
    named("rw", {
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: ["s3:*"], Resource: ["arn:aws:s3:::photos/*"] }],
    }),
    named("no-delete", {
      Version: "2012-10-17",
      Statement: [{ Sid: "keep", Effect: "Deny", Action: ["s3:Delete*"], Resource: ["arn:aws:s3:::*"] }],
    }),
  ];
  assert.equal(evaluate(policies, { action: "s3:GetObject", bucket: "photos", key: "a.jpg" }).allowed, true);
  assert.equal(
    evaluate(policies, { action: "s3:ListBucket", bucket: "photos", key: "" }).allowed,
    true,
    "photos/* covers bucket-level calls",
  );
  assert.equal(evaluate(policies, { action: "s3:GetObject", bucket: "other", key: "a" }).allowed, false);
  const denied = evaluate(policies, { action: "s3:DeleteObject", bucket: "photos", key: "a.jpg" });
  assert.deepEqual([denied.allowed, denied.policy, denied.sid], [false, "no-delete", "keep"]);
  assert.equal(
    evaluate(policies, { action: "s3:DeleteObject", bucket: "x", key: "y", isOwner: true }).allowed,
    false,
  );
  assert.equal(
    evaluate([], { action: "admin:ServerInfo", bucket: "", key: "", isOwner: true }).allowed,
    true,
  );
  assert.equal(
    evaluate([named("admin", CANNED_POLICIES.consoleAdmin)], {
      action: "admin:CreateUser",
      bucket: "",
      key: "",
    }).allowed,
    true,
  );
});

Deno.test("conditions: prefix, negation, missing keys, IfExists, IP, variables", () => {
  const home = named("home", {
    Version: "2012-10-17",
    Statement: [
      {
        Effect: "Allow",
        Action: ["s3:ListBucket"],
        Resource: ["arn:aws:s3:::home"],
        Condition: { StringLike: { "s3:prefix": ["${aws:username}/*"] } },
      },
      {
        Effect: "Allow",
        Action: ["s3:GetObject"],
        Resource: ["arn:aws:s3:::home/${aws:username}/*"],
        Condition: { IpAddress: { "aws:SourceIp": "10.0.0.0/8" } },
      },
      {
        Effect: "Deny",
        Action: ["s3:GetObject"],
        Resource: ["arn:aws:s3:::home/*"],
        Condition: { StringNotEquals: { "aws:username": "alice" } },
      },
    ],
  });
  const alice = { "aws:username": ["alice"], "aws:SourceIp": ["10.1.2.3"] };
  assert.equal(
    evaluate([home], {
      action: "s3:ListBucket",
      bucket: "home",
      key: "",
      conditions: { ...alice, "s3:prefix": ["alice/docs"] },
    }).allowed,
    true,
  );
  assert.equal(
    evaluate([home], {
      action: "s3:ListBucket",
      bucket: "home",
      key: "",
      conditions: { ...alice, "s3:prefix": ["bob/"] },
    }).allowed,
    false,
  );
  assert.equal(
    evaluate([home], { action: "s3:ListBucket", bucket: "home", key: "", conditions: alice }).allowed,
    false,
    "missing key fails a positive operator",
  );
  assert.equal(
    evaluate([home], { action: "s3:GetObject", bucket: "home", key: "alice/a", conditions: alice }).allowed,
    true,
  );
  assert.equal(
    evaluate([home], {
      action: "s3:GetObject",
      bucket: "home",
      key: "alice/a",
      conditions: { ...alice, "aws:SourceIp": ["192.168.1.1"] },
    }).allowed,
    false,
  );
  assert.equal(
    evaluate([home], {
      action: "s3:GetObject",
      bucket: "home",
      key: "bob/a",
      conditions: { "aws:username": ["bob"], "aws:SourceIp": ["10.0.0.1"] },
    }).allowed,
    false,
  );
});

Deno.test("an inline or session policy intersects with the parent's", () => {
  const parent = [named("readwrite", CANNED_POLICIES.readwrite)];
  const inline = [
    named("inline", {
      Version: "2012-10-17",
      Statement: [{ Effect: "Allow", Action: ["s3:GetObject"], Resource: ["arn:aws:s3:::a/*"] }],
    }),
  ];
  assert.equal(
    evaluateIntersection([parent, inline], { action: "s3:GetObject", bucket: "a", key: "k" }).allowed,
    true,
  );
  assert.equal(
    evaluateIntersection([parent, inline], { action: "s3:PutObject", bucket: "a", key: "k" }).allowed,
    false,
  );
  assert.equal(
    evaluateIntersection([[named("readonly", CANNED_POLICIES.readonly)], inline], {
      action: "s3:GetObject",
      bucket: "a",
      key: "k",
    }).allowed,
    true,
  );
});

Deno.test("access presets and prefix rules round-trip and are enforced as anonymous policy", () => {
  const pub = presetPolicy("b", "PUBLIC");
  assert.equal(bucketAccessOf(pub, "b"), "PUBLIC");
  assert.equal(bucketAccessOf(null, "b"), "PRIVATE");
  let policy = setAccessRule(null, "b", "docs/", "readonly");
  policy = setAccessRule(policy, "b", "drop/", "writeonly");
  assert.deepEqual(readAccessRules(policy, "b").rules, [{ prefix: "docs/", access: "readonly" }, {
    prefix: "drop/",
    access: "writeonly",
  }]);
  assert.equal(bucketAccessOf(policy, "b"), "CUSTOM");
  const anon = [{ name: "bucket", policy: policy! }];
  assert.equal(evaluate(anon, { action: "s3:GetObject", bucket: "b", key: "docs/x" }).allowed, true);
  assert.equal(evaluate(anon, { action: "s3:GetObject", bucket: "b", key: "drop/x" }).allowed, false);
  assert.equal(evaluate(anon, { action: "s3:PutObject", bucket: "b", key: "drop/x" }).allowed, true);
  assert.equal(
    evaluate(anon, { action: "s3:ListBucket", bucket: "b", key: "", conditions: { "s3:prefix": ["docs/a"] } })
      .allowed,
    true,
  );
  policy = setAccessRule(setAccessRule(policy, "b", "docs/", "none"), "b", "drop/", "none");
  assert.equal(policy, null);
});
