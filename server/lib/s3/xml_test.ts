import assert from "node:assert/strict";
import { buildXml, child, childBool, children, childText, parseXml, XmlError } from "./xml.ts";

Deno.test("parses S3 documents with namespaces, entities, CDATA and self-closing tags", () => {
  const root = parseXml(`<?xml version="1.0" encoding="UTF-8"?>
<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>b</Name>
  <Contents><Key>a &amp; b&lt;&#x41;</Key><Size>3</Size></Contents>
  <Contents><Key><![CDATA[x<y]]></Key><Empty/></Contents>
  <!-- comment -->
</ListBucketResult>`);
  assert.equal(root.name, "ListBucketResult");
  assert.equal(root.attributes.xmlns, "http://s3.amazonaws.com/doc/2006-03-01/");
  assert.equal(childText(root, "Name"), "b");
  const contents = children(root, "Contents");
  assert.equal(contents.length, 2);
  assert.equal(childText(contents[0], "Key"), "a & b<A");
  assert.equal(childText(contents[1], "Key"), "x<y");
  assert.ok(child(contents[1], "Empty"));
  assert.equal(childText(root, "Missing"), undefined);
});

Deno.test("refuses malformed and dangerous documents", () => {
  const bad = [
    "<a><b></a>",
    "<a>",
    "",
    "<a/><b/>",
    `<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>`,
    "<a>&unknown;</a>",
    "text<a/>",
    "<" + "a>".repeat(1) + "<b>".repeat(40) + "</b>".repeat(40) + "</a>",
  ];
  for (const text of bad) assert.throws(() => parseXml(text), XmlError, text.slice(0, 40));
});

Deno.test("builder escapes, repeats arrays and skips missing fields", () => {
  const xml = buildXml("Tagging", {
    TagSet: { Tag: [{ Key: "a<b", Value: "1" }, { Key: "c", Value: "" }] },
    Skip: undefined,
  });
  assert.equal(
    xml,
    `<?xml version="1.0" encoding="UTF-8"?>\n<Tagging xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><TagSet><Tag><Key>a&lt;b</Key><Value>1</Value></Tag><Tag><Key>c</Key><Value></Value></Tag></TagSet></Tagging>`,
  );
  const round = parseXml(xml);
  assert.equal(childText(children(child(round, "TagSet"), "Tag")[0], "Key"), "a<b");
});

Deno.test("values are read byte for byte: spaces, tabs and newlines kept, CR LF read as LF", () => {
  const root = parseXml(
    "<Delete><Object><Key> </Key></Object><Object><Key>\t_ \n</Key></Object><Object><Key>a\r\nb&#13;</Key></Object><Quiet> true </Quiet></Delete>",
  );
  assert.deepEqual(children(root, "Object").map((o) => childText(o, "Key")), [" ", "\t_ \n", "a\nb\r"]);
  assert.equal(childBool(root, "Quiet"), true);
  assert.equal(childBool(root, "Missing"), undefined);
  const xml = buildXml("Key", { Value: " \t\r\n " });
  assert.match(xml, /<Value> &#x9;&#xD;&#xA; <\/Value>/);
  assert.equal(childText(parseXml(xml), "Value"), " \t\r\n ");
});
