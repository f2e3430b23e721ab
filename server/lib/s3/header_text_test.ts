import assert from "node:assert/strict";
import { decodeHeaderText, encodeHeaderText } from "./header_text.ts";

Deno.test("header text: values that are not ASCII travel as encoded words and read back exactly", () => {
  assert.equal(encodeHeaderText("plain ascii; a=b"), "plain ascii; a=b");
  for (const value of ["Zoë", "报告 2026", "Ελληνικά", "ｶﾀｶﾅ", "🎉🦄", "line\nbreak", "ü".repeat(200)]) {
    const encoded = encodeHeaderText(value);
    assert.match(encoded, /^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=( =\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=)*$/);
    for (const word of encoded.split(" ")) assert.ok(word.length <= 75, "RFC 2047's word length");
    assert.equal(decodeHeaderText(encoded), value);
    new Headers({ "x-amz-meta-v": encoded }); // a valid header value
  }
});

Deno.test("header text: what other clients and servers send reads as text", () => {
  assert.equal(decodeHeaderText("=?utf-8?q?Zo=C3=AB_=E2=9C=93?="), "Zoë ✓", "Q encoding, lower case");
  assert.equal(decodeHeaderText("=?ISO-8859-1?Q?caf=E9?="), "café");
  assert.equal(decodeHeaderText("before =?UTF-8?B?w7w=?= after"), "before ü after");
  assert.equal(decodeHeaderText("Zo\u00c3\u00ab"), "Zoë", "raw UTF-8 bytes seen as Latin-1");
  assert.equal(decodeHeaderText("caf\u00e9"), "café", "real Latin-1 stays");
  assert.equal(decodeHeaderText("=?bogus?B?w7w=?="), "=?bogus?B?w7w=?=", "an unknown charset stays");
  assert.equal(decodeHeaderText("a=?b"), "a=?b");
});
