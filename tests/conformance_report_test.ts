/** The conformance run's bookkeeping (build/conformance_*.ts), on junit XML as pytest writes it. */
import assert from "node:assert/strict";
import { parseJunit } from "../build/conformance_junit.ts";
import { classify, renderReport } from "../build/conformance_report.ts";

const S3 = "s3tests/functional/test_s3.py";
const JUNIT = `<?xml version="1.0" encoding="utf-8"?><testsuites name="pytest tests">
<testsuite name="pytest" tests="4" time="12.8" timestamp="2026-05-07T10:00:00.000000+00:00">
<testcase classname="s3tests.functional.test_s3" name="test_bucket_list_empty" time="1.5" />
<testcase classname="s3tests.functional.test_s3" name="test_object_acl_canned" time="0.5"><failure message="AssertionError: assert 1 == 2">trace</failure></testcase>
<testcase classname="s3tests.functional.test_s3" name="test_bucket_acl_default" time="0.5"><failure message="botocore.exceptions.ClientError: An error occurred (InternalError) when calling the GetBucketAcl operation">trace</failure></testcase>
<testcase classname="s3tests.functional.test_s3" name="test_bucket_acl_default" time="0.1"><error message="failed on teardown with &quot;BucketNotEmpty&quot;">trace</error></testcase>
<testcase classname="s3tests.functional.test_iam" name="test_put_user_policy" time="0.2"><failure message="assert 400 == 404">trace</failure></testcase>
</testsuite></testsuites>`;

Deno.test("junit results: one per test run, a test junit lost counts as an error, teardown errors do not hide failures", () => {
  const ids = [
    `${S3}::test_bucket_list_empty`,
    `${S3}::test_object_acl_canned`,
    `${S3}::test_bucket_acl_default`,
    "s3tests/functional/test_iam.py::test_put_user_policy",
    `${S3}::test_object_write_file`,
  ];
  const results = parseJunit(JUNIT, ids);
  assert.deepEqual(results.map((r) => r.outcome), ["passed", "failed", "failed", "failed", "error"]);
  assert.match(results[2].message, /InternalError/);
  assert.equal(results[4].message, "not reported by pytest");
  // 12.8 s in all, of which 2.8 s are tests: the first started 10 s in (collection).
  assert.equal(results[1].startedAt, Date.parse("2026-05-07T10:00:11.500Z"));
  assert.deepEqual(parseJunit("<testsuites", [ids[0]]).map((r) => r.outcome), ["error"]);
});

Deno.test("failures MinIO shares are filed with their source; server faults and the rest are ours", () => {
  const ids = [
    `${S3}::test_object_acl_canned`,
    `${S3}::test_bucket_acl_default`,
    "s3tests/functional/test_iam.py::test_put_user_policy",
  ];
  const rows = classify(parseJunit(JUNIT, ids), {});
  assert.match(rows[0].expected?.source ?? "", /acl-handlers\.go/);
  assert.equal(rows[1].expected, undefined, "a 500 is ours whatever the test is about");
  assert.equal(rows[2].expected?.rgwOnly, true);
  const report = renderReport(rows, {
    started: new Date("2026-05-07T10:00:00Z"),
    minutes: 1,
    suiteCommit: "abc",
    suiteDate: "2026-05-07",
    pytestArgs: [],
    crashes: [],
  });
  assert.equal(report.oursToFix, 1);
  assert.match(report.markdown, /## Ours to fix \(1\)[\s\S]*`test_bucket_acl_default` \| botocore/);
  assert.match(report.markdown, /### Where the suite assumes Ceph RGW/);
});

Deno.test("a rule that names tests and a message covers only those tests failing with that message", () => {
  const failure = (name: string, message: string) =>
    `<testcase classname="s3tests.functional.test_s3" name="${name}" time="0.1"><failure message="${message}">t</failure></testcase>`;
  const junit = `<testsuites><testsuite name="pytest" timestamp="2026-05-07T10:00:00.000000+00:00">${
    [
      failure("test_post_object_missing_signature", "assert 403 == 400"),
      failure("test_post_object_tags_authenticated_request", "assert 403 == 204"),
      failure("test_copy_part_enc[sse-c-sse-c-STANDARD-STANDARD-8388608]", "assert 403 == 400"),
      failure("test_bucket_list_empty", "assert 403 == 400"),
    ].join("")
  }</testsuite></testsuites>`;
  const ids = [
    `${S3}::test_post_object_missing_signature`,
    `${S3}::test_post_object_tags_authenticated_request`,
    `${S3}::test_copy_part_enc[sse-c-sse-c-STANDARD-STANDARD-8388608]`,
    `${S3}::test_bucket_list_empty`,
  ];
  const rows = classify(parseJunit(junit, ids), {});
  assert.match(rows[0].expected?.source ?? "", /PostPolicyBucketHandler/);
  assert.equal(rows[1].expected, undefined, "another failure of a POST test is still ours");
  assert.match(rows[2].expected?.reason ?? "", /SSE-C key/);
  assert.equal(rows[3].expected, undefined, "the message alone covers no other test");
});
