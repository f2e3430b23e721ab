import assert from "node:assert/strict";
// Outside a request the console's texts are English: the functions under test say what the English screen says.
import "../../server/console/render/i18n.ts";
import {
  type BrowserLocation,
  crumbsOf,
  hrefOf,
  leafName,
  parentPrefix,
  parseLocation,
} from "./locations.ts";

Deno.test("object browser locations round-trip through their URLs, awkward keys included", () => {
  const cases: BrowserLocation[] = [
    { kind: "buckets" },
    { kind: "folder", bucket: "photos", prefix: "" },
    { kind: "folder", bucket: "photos", prefix: "2024/ü b %+#?/" },
    { kind: "object", bucket: "photos", key: "2024/a b%2F+#?.jpg" },
    { kind: "object", bucket: "photos", key: "x//y", versionId: "a1-b2" },
    { kind: "folder", bucket: "photos", prefix: "trailing//" },
  ];
  for (const location of cases) {
    const href = hrefOf("/console/", location);
    const url = new URL(href, "http://host");
    assert.deepEqual(parseLocation(url.pathname.slice("/console".length), url.search), location, href);
  }
  assert.deepEqual(parseLocation("/object-browser/photos"), { kind: "folder", bucket: "photos", prefix: "" });
  assert.equal(parseLocation("/buckets/photos"), null);
});

Deno.test("breadcrumbs start at All Buckets and end with the file", () => {
  const crumbs = crumbsOf({ kind: "object", bucket: "b", key: "x/y/z.txt" });
  assert.deepEqual(crumbs.map((c) => [c.label, c.type]), [
    ["All Buckets", "path"],
    ["b", "path"],
    ["x", "path"],
    ["y", "path"],
    ["z.txt", "file"],
  ]);
  assert.deepEqual(crumbs[3].location, { kind: "folder", bucket: "b", prefix: "x/y/" });
  assert.deepEqual(crumbsOf({ kind: "folder", bucket: "b", prefix: "x/" }).map((c) => c.label), [
    "All Buckets",
    "b",
    "x",
  ]);
  assert.equal(parentPrefix("x/y/z.txt"), "x/y/");
  assert.equal(parentPrefix("x/y/"), "x/");
  assert.equal(parentPrefix("z"), "");
  assert.equal(leafName("x/y/"), "y/");
});
