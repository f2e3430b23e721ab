/**
 * The policy validator's messages (server/lib/policy/validate.ts, shared with the storage server, which answers in
 * English) in the language shown: each known message is matched and said again from the catalogue, its names kept;
 * a message not known here stays as the validator wrote it.
 */
import { type MessageKey, t } from "../i18n/t.ts";

const PROBLEMS: [RegExp, MessageKey, string[]][] = [
  [/^(\w+) must be a string or a list of strings$/, "iam.problem.notStrings", ["field"]],
  [/^Statement (\d+) must be an object$/, "iam.problem.statementNotObject", ["n"]],
  [/^duplicate field (.+)$/, "iam.problem.duplicateField", ["field"]],
  [/^Sid must be a string$/, "iam.problem.sidNotString", []],
  [/^Effect must be "Allow" or "Deny"$/, "iam.problem.badEffect", []],
  [/^(\w+) must not be empty$/, "iam.problem.empty", ["field"]],
  [/^unknown action "(.*)"$/, "iam.problem.unknownAction", ["action"]],
  [/^invalid resource "(.*)": expected arn:aws:s3:::bucket\[\/key\]$/, "iam.problem.badResource", [
    "resource",
  ]],
  [/^invalid resource "(.*)": bucket name missing$/, "iam.problem.resourceNoBucket", ["resource"]],
  [/^Principal must be "\*" or \{"AWS": \[\.\.\.\]\}$/, "iam.problem.badPrincipal", []],
  [/^MinIO supports only the anonymous principal "\*"$/, "iam.problem.anonymousOnly", []],
  [/^unknown field "(.*)" in a statement$/, "iam.problem.unknownStatementField", ["field"]],
  [/^Statement (\d+) needs an Effect$/, "iam.problem.needsEffect", ["n"]],
  [/^Statement (\d+) needs an Action$/, "iam.problem.needsAction", ["n"]],
  [/^use either Action or NotAction, not both$/, "iam.problem.actionOrNotAction", []],
  [/^use either Resource or NotResource, not both$/, "iam.problem.resourceOrNotResource", []],
  [/^Statement (\d+) needs a Resource for its s3 actions$/, "iam.problem.needsResource", ["n"]],
  [/^a bucket policy statement needs a Principal$/, "iam.problem.needsPrincipal", []],
  [/^Principal is only allowed in bucket policies$/, "iam.problem.principalOnlyBucket", []],
  [/^Condition must be an object of operators$/, "iam.problem.badCondition", []],
  [/^unknown condition operator "(.*)"$/, "iam.problem.unknownOperator", ["operator"]],
  [/^(\S+) must map condition keys to values$/, "iam.problem.operatorMap", ["operator"]],
  [/^unsupported condition key "(.*)"$/, "iam.problem.unsupportedKey", ["key"]],
  [/^values of (.+) must be strings$/, "iam.problem.valuesNotStrings", ["key"]],
  [/^a policy must be a JSON object$/, "iam.problem.notObject", []],
  [/^Version must be "2012-10-17"$/, "iam.problem.badVersion", []],
  [/^Id must be a string$/, "iam.problem.idNotString", []],
  [/^Statement must not be empty$/, "iam.problem.statementEmpty", []],
  [/^unknown field "(.*)" in a policy$/, "iam.problem.unknownPolicyField", ["field"]],
  [/^the policy needs a Version$/, "iam.problem.needsVersion", []],
  [/^the policy needs a Statement$/, "iam.problem.needsStatement", []],
  [/^Statement (\d+): resources must be inside bucket (.+)$/, "iam.problem.outsideBucket", ["n", "bucket"]],
  [/^unterminated string$/, "iam.problem.unterminatedString", []],
  [/^line break inside a string$/, "iam.problem.lineBreak", []],
  [/^invalid escape in string$/, "iam.problem.badEscape", []],
  [/^nesting too deep$/, "iam.problem.tooDeep", []],
  [/^trailing comma before \}$/, "iam.problem.trailingCommaObject", []],
  [/^expected a quoted property name$/, "iam.problem.expectedName", []],
  [/^expected : after property name$/, "iam.problem.expectedColon", []],
  [/^expected , or \} after a property$/, "iam.problem.expectedCommaObject", []],
  [/^trailing comma before \]$/, "iam.problem.trailingCommaList", []],
  [/^expected , or \] after a list item$/, "iam.problem.expectedCommaList", []],
  [/^unexpected end of text$/, "iam.problem.unexpectedEnd", []],
  [/^unexpected character (.+)$/, "iam.problem.unexpectedChar", ["char"]],
  [/^unexpected text after the JSON value$/, "iam.problem.textAfter", []],
];

/** A validator message in the language in force. */
export function problemText(message: string): string {
  for (const [pattern, key, names] of PROBLEMS) {
    const match = pattern.exec(message);
    if (match) return t(key, Object.fromEntries(names.map((name, i) => [name, match[i + 1]])));
  }
  return message;
}
