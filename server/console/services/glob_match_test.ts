import assert from "node:assert/strict";
import { globMatcher } from "./glob_match.ts";

const cases: [pattern: string, key: string, expected: boolean][] = [
  ["*", "", true],
  ["*", "any/key with spaces.txt", true],
  ["*.jpg", "photos/2024/summer.jpg", true],
  ["*.jpg", "photos/2024/summer.jpeg", false],
  ["photos/*", "photos/", true],
  ["photos/*", "photo/x", false],
  ["*/2024-*.jpg", "trip/2024-07 beach.jpg", true],
  ["a*b*c", "abc", true],
  ["a*b*c", "aXXbYYc", true],
  ["a*b*c", "aXXbYYcZ", false],
  ["a**b", "ab", true],
  ["*a*a*a*a*a*a*b", "a".repeat(59) + "b", true],
  ["*a*a*a*a*a*a*b", "a".repeat(60), false],
  // `?` is exactly one character, an emoji included, never none.
  ["report-?.csv", "report-7.csv", true],
  ["report-?.csv", "report-.csv", false],
  ["report-?.csv", "report-17.csv", false],
  ["?", "🙂", true],
  ["??", "🙂", false],
  ["fête ?", "fête 🎉", true],
  // Everything else is literal, regular-expression characters too.
  ["a+b%c#d", "a+b%c#d", true],
  ["a+b", "aab", false],
  ["100%", "100%", true],
  ["#tag?", "#tag1", true],
  ["file.txt", "fileXtxt", false],
  ["(x)[y]{z}^$|\\", "(x)[y]{z}^$|\\", true],
  ["日本語/*", "日本語/ファイル.txt", true],
  // The whole key, in any case.
  ["*.JPG", "holiday.jpg", true],
  ["Report*", "my report.pdf", false],
  ["ÉTÉ *", "été 2024", true],
];

Deno.test("glob matcher: *, ?, literal characters, whole key, any case", () => {
  for (const [pattern, key, expected] of cases) {
    assert.equal(globMatcher(pattern)(key), expected, `${JSON.stringify(pattern)} on ${JSON.stringify(key)}`);
  }
});

Deno.test("glob matcher: patterns that make a backtracking engine explode stay cheap", () => {
  const key = "a".repeat(1024);
  // A backtracking regular expression needs on the order of 1024^6 steps for the first one.
  for (const pattern of ["*a*a*a*a*a*a*b", "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*?b", `*${"a?".repeat(100)}b`]) {
    assert.equal(globMatcher(pattern)(key), false, pattern);
  }
  assert.equal(globMatcher("*a*a*a*a*a*a*")(key), true);
});
