import assert from "node:assert/strict";
import { matchScore, type PaletteItem, rankItems } from "./palette_items.ts";

const item = (kind: PaletteItem["kind"], label: string): PaletteItem => ({
  key: `${kind}:${label}`,
  label,
  kind,
  run: () => {},
});

Deno.test("the palette matches names in any script, case and Unicode form aside", () => {
  assert.equal(matchScore("Zoë-Ünïcode", "zoë"), 1);
  // "ë" typed as e + combining diaeresis finds the precomposed name.
  assert.equal(matchScore("zoë", "zoe\u0308"), 0);
  assert.equal(matchScore("équipe photo 📷", "📷"), 2);
  assert.equal(matchScore("Object Browser", "browser"), 2);
  assert.equal(matchScore("photos-2026", "2026"), 2);
  assert.equal(matchScore("consoleAdmin", "cadm"), 4, "letters in order");
  assert.equal(matchScore("consoleAdmin", "x"), null);
});

Deno.test("better matches come first, then by kind and name", () => {
  const items = [item("user", "photographer"), item("bucket", "photos"), item("page", "Dashboard")];
  assert.deepEqual(rankItems(items, "photos").map((i) => i.label), ["photos"]);
  assert.deepEqual(rankItems(items, "pho").map((i) => i.label), ["photos", "photographer"]);
  assert.deepEqual(rankItems(items, "").map((i) => i.kind), ["page", "bucket", "user"]);
});
