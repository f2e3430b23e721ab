import assert from "node:assert/strict";
import type { AssetManifest } from "../../../static/gen/manifest.ts";
import { inLocale, loadLocale } from "./i18n.ts";
import { Island, jsonForHtml } from "./island.tsx";
import { createPageRenderer } from "./page.tsx";
import BucketAccessLabel from "../../../islands/BucketAccessLabel.tsx";

Deno.test("JSON in a page cannot end its script element or open a comment", () => {
  const hostile = { name: "</script><!-- & \u2028\u2029 >" };
  const embedded = jsonForHtml(hostile);
  assert.equal(embedded, '{"name":"\\u003c/script\\u003e\\u003c!-- \\u0026 \\u2028\\u2029 \\u003e"}');
  assert.deepEqual(JSON.parse(embedded), hostile);
});

const manifest: AssetManifest = {
  client: "client.js",
  shortcuts: "shortcuts.js",
  css: "app.css",
  favicon: "favicon.svg",
  islands: { BucketAccessLabel: ["BucketAccessLabel.js"] },
  areas: { BucketAccessLabel: ["buckets"] },
};

const messagesOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="deck-i18n">(.*?)<\/script>/.exec(html)![1]);

Deno.test("each page carries its islands' texts in the visitor's language", async () => {
  const render = createPageRenderer({ subpath: "/", manifest });
  const page = () =>
    render({
      title: "Buckets",
      body: <Island name="BucketAccessLabel" component={BucketAccessLabel} props={{ access: "PRIVATE" }} />,
    });
  await loadLocale("de");
  const english = await inLocale("en", () => page().text());
  const german = await inLocale("de", () => page().text());
  const englishAgain = await inLocale("en", () => page().text());
  assert.equal(messagesOf(english).locale, "en");
  assert.equal(messagesOf(german).locale, "de");
  assert.deepEqual(messagesOf(englishAgain), messagesOf(english));
  assert.notDeepEqual(messagesOf(german).messages, messagesOf(english).messages);
  assert.ok(Object.keys(messagesOf(english).messages).some((key) => key.startsWith("buckets.")));
});
