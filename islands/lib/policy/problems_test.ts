import assert from "node:assert/strict";
import { inLocale, loadLocale } from "../../../server/console/render/i18n.ts";
import { checkPolicy } from "../../../server/lib/policy/validate.ts";
import { problemText } from "./problems.ts";

await Promise.all([loadLocale("de"), loadLocale("zh-Hans")]);

/** Policies that make the validator say each of its messages at least once. */
const BROKEN = [
  "[]",
  "{",
  '{"Version": "2012-10-17", "Statement": [],}',
  '{"Version": "2012-10-17", "Statement": ["x"]}',
  '{"Version": "2012-10-17", "Statement": []}',
  '{"Version": "1", "Id": 3, "Extra": 1}',
  `{"Version": "2012-10-17", "Statement": [{"Sid": 1, "Effect": "Maybe", "Action": ["s3:Nope"], "NotAction": [],
    "Resource": ["bucket", "arn:aws:s3:::"], "NotResource": "x", "Principal": "*", "Extra": 1,
    "Condition": {"Nope": {"aws:Nope": [1]}, "StringEquals": 3}}]}`,
  '{"Version": "2012-10-17", "Statement": [{"Resource": "arn:aws:s3:::b"}]}',
  '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:GetObject"}]}',
  '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:GetObject", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*"}]}',
  '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": 3, "Resource": "arn:aws:s3:::b/*", "Condition": 3}]}',
  '{"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "s3:GetObject", "Resource": "arn:aws:s3:::b/*", "Condition": {"StringEquals": {"aws:SourceIp": {"a": 1}}}}]}',
];

const messages =
  () => [...new Set(BROKEN.flatMap((text) => checkPolicy(text).problems.map((p) => p.message)))];

Deno.test("the validator's messages read the same in English and in the other languages' words", () => {
  const english = messages();
  assert.ok(english.length >= 20, `only ${english.length} messages provoked`);
  for (const message of english) assert.equal(problemText(message), message);
  for (const locale of ["de", "zh-Hans"] as const) {
    inLocale(locale, () => {
      for (const message of english) assert.notEqual(problemText(message), message, `${locale}: ${message}`);
    });
  }
});
