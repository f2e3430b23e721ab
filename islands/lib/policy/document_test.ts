import assert from "node:assert/strict";
// Texts outside a request are English: the server installs that source (the checks below read the English texts).
import "../../../server/console/render/i18n.ts";
import { MINIO_CANNED_POLICIES } from "../../../tests/minio_canned_policies.ts";
import { checkPolicy } from "../../../server/lib/policy/validate.ts";
import {
  describeResource,
  expandActions,
  isActionPattern,
  requestTarget,
  resourceArn,
  searchActions,
} from "./catalog.ts";
import {
  hiddenParts,
  newStatement,
  parsePolicy,
  policyJson,
  type PolicyView,
  type StatementView,
} from "./document.ts";

function viewOf(text: string): PolicyView {
  const parsed = parsePolicy(text);
  assert.ok(parsed.ok, `the builder shows ${text}`);
  return parsed.view;
}

const statement = (view: PolicyView, i: number) => view.statements[i] as StatementView;

for (const [name, text] of Object.entries(MINIO_CANNED_POLICIES)) {
  Deno.test(`MinIO's canned policy ${name} goes through the builder's model unchanged`, () => {
    const view = viewOf(text);
    assert.deepEqual(hiddenParts(view), [], "the builder shows every part of it");
    assert.equal(JSON.stringify(policyJson(view)), text, "same JSON, key order and list forms included");
    assert.deepEqual(checkPolicy(text).problems, []);
  });
}

Deno.test("the model shows a canned policy's statements as the builder lists them", () => {
  const view = viewOf(MINIO_CANNED_POLICIES.consoleAdmin);
  assert.deepEqual(
    view.statements.map((s) => {
      const { effect, actions, resources } = s as StatementView;
      return { effect, actions, resources };
    }),
    [
      { effect: "Allow", actions: ["admin:*"], resources: null },
      { effect: "Allow", actions: ["kms:*"], resources: null },
      { effect: "Allow", actions: ["s3:*"], resources: ["arn:aws:s3:::*"] },
    ],
  );
});

Deno.test("parts the builder cannot show are kept as written and named", () => {
  const doc = {
    Id: "photos-team",
    Version: "2012-10-17",
    Statement: [
      {
        Sid: "Read 📷",
        Effect: "Allow",
        Principal: { AWS: ["*"] },
        Action: "s3:GetObject",
        Resource: "arn:aws:s3:::photos/Документы/*",
        Condition: { Bool: { "aws:SecureTransport": true }, NumericLessThan: { "s3:max-keys": [10, 20] } },
      },
      { Effect: "Deny", NotAction: ["s3:*"], Condition: { StringEquals: { "s3:prefix": { nested: 1 } } } },
      "not a statement",
    ],
  };
  const text = JSON.stringify(doc);
  const view = viewOf(text);
  assert.equal(JSON.stringify(policyJson(view)), text);
  assert.deepEqual(hiddenParts(view).map((h) => h.field), [
    "Id",
    "Statement 1: Principal",
    "Statement 2: Condition",
    "Statement 3",
  ]);
  assert.deepEqual(statement(view, 0).conditions, [
    { operator: "Bool", key: "aws:SecureTransport", values: [true], single: true },
    { operator: "NumericLessThan", key: "s3:max-keys", values: [10, 20], single: false },
  ]);
});

Deno.test("an edit in the builder changes only the field edited, in place", () => {
  const text = JSON.stringify({
    Version: "2012-10-17",
    Statement: [
      { Resource: "arn:aws:s3:::a/*", Action: "s3:GetObject", Effect: "Allow" },
      { Effect: "Allow", Action: ["s3:ListBucket"], Resource: ["arn:aws:s3:::a"] },
    ],
  });
  const view = viewOf(text);
  const first = statement(view, 0);
  view.statements[0] = { ...first, actionField: "NotAction", actions: ["s3:DeleteObject"] };
  const out = policyJson(view) as { Statement: Record<string, unknown>[] };
  assert.deepEqual(
    Object.keys(out.Statement[0]),
    ["Resource", "NotAction", "Effect"],
    "renamed in its place",
  );
  assert.equal(out.Statement[0].NotAction, "s3:DeleteObject", "one action stays a string as written");
  assert.deepEqual(out.Statement[1], JSON.parse(text).Statement[1]);
  view.statements[0] = { ...first, actions: ["s3:GetObject", "s3:PutObject"] };
  assert.deepEqual((policyJson(view) as typeof out).Statement[0].Action, ["s3:GetObject", "s3:PutObject"]);
});

Deno.test("a statement added in the builder is written in the usual order, parts left out until chosen", () => {
  const view = viewOf(JSON.stringify({ Version: "2012-10-17", Statement: [] }));
  view.statements.push({
    ...newStatement(),
    actions: ["s3:GetObject"],
    resources: ["arn:aws:s3:::photos/*"],
    conditions: [{ operator: "IpAddress", key: "aws:SourceIp", values: ["10.0.0.0/8"], single: false }],
  });
  assert.deepEqual(policyJson(view), {
    Version: "2012-10-17",
    Statement: [{
      Effect: "Allow",
      Action: ["s3:GetObject"],
      Resource: ["arn:aws:s3:::photos/*"],
      Condition: { IpAddress: { "aws:SourceIp": ["10.0.0.0/8"] } },
    }],
  });
});

Deno.test("text the builder cannot read says why", () => {
  assert.deepEqual(parsePolicy("{"), { ok: false, reason: "its JSON is not valid" });
  assert.deepEqual(parsePolicy("[]"), { ok: false, reason: "it is not a JSON object" });
  assert.equal(parsePolicy('{"Statement": 3}').ok, false);
});

Deno.test("resources are built and said in words, names in any script", () => {
  assert.equal(resourceArn("", "objects"), "arn:aws:s3:::*");
  assert.equal(resourceArn("photos", "bucket"), "arn:aws:s3:::photos");
  assert.equal(resourceArn("photos", "objects"), "arn:aws:s3:::photos/*");
  assert.equal(
    resourceArn("photos", "prefix", "Документы/2026 #1/"),
    "arn:aws:s3:::photos/Документы/2026 #1/*",
  );
  assert.equal(resourceArn("photos", "object", "a+b %.txt"), "arn:aws:s3:::photos/a+b %.txt");
  assert.equal(describeResource("arn:aws:s3:::*"), "every bucket and object");
  assert.equal(describeResource("arn:aws:s3:::photos"), "bucket photos");
  assert.equal(describeResource("arn:aws:s3:::photos/*"), "every object in bucket photos");
  assert.equal(describeResource("arn:aws:s3:::photos/2026/*"), "objects under 2026/ in bucket photos");
  assert.equal(describeResource("arn:aws:s3:::logs-*/a.txt"), "object a.txt in buckets matching logs-*");
  assert.deepEqual(requestTarget("arn:aws:s3:::photos/报告 2026.pdf"), {
    bucket: "photos",
    key: "报告 2026.pdf",
  });
});

Deno.test("actions are grouped, searchable and wildcards expand to what they cover", () => {
  const found = searchActions("getobject");
  assert.deepEqual(found.map((g) => g.label), ["S3: objects"]);
  assert.ok(found[0].actions.includes("s3:GetObject"));
  assert.ok(searchActions("").length >= 6);
  assert.ok(isActionPattern("s3:Get*"));
  assert.equal(isActionPattern("s3:Fly*"), false);
  assert.equal(isActionPattern("s3:GetObject"), false, "a plain name is chosen from the list");
  assert.deepEqual(expandActions(["s3:GetObject", "s3:PutObject"]), ["s3:GetObject", "s3:PutObject"]);
  assert.ok(expandActions(["s3:Get*"]).every((a) => a.startsWith("s3:Get")));
  assert.ok(expandActions(["admin:*"]).includes("admin:CreateUser"));
});
