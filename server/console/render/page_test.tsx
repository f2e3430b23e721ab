import assert from "node:assert/strict";
import type { AssetManifest } from "../../../static/gen/manifest.ts";
import { inLocale, loadLocale } from "./i18n.ts";
import { Island, jsonForHtml } from "./island.tsx";
import { createPageRenderer } from "./page.tsx";
import BucketAccessLabel from "../../../islands/BucketAccessLabel.tsx";
import { useId } from "react";
import { renderToString } from "react-dom/server";

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

/** A stand-in island whose HTML shows React's id for it, as labels tie to inputs. */
function Labelled({ label }: { label: string }) {
  const id = useId();
  return <label htmlFor={id}>{label}</label>;
}

Deno.test("an island's HTML is what the browser hydrates: rendered as a root of its own", async () => {
  const render = createPageRenderer({ subpath: "/", manifest });
  const html = await render({
    title: "Labels",
    body: (
      <div>
        <p>before</p>
        {["first", "second"].map((label) => (
          <section key={label}>
            <Island name="BucketAccessLabel" component={Labelled as never} props={{ label }} />
          </section>
        ))}
      </div>
    ),
  }).text();
  // Each island alone, as islands/client.ts hydrates it: deep in the page, its id is still a root's.
  const alone = (label: string) => renderToString(<Labelled label={label} />);
  assert.ok(html.includes(`<div data-island="BucketAccessLabel" class="contents">${alone("first")}</div>`));
  assert.ok(html.includes(`<div data-island="BucketAccessLabel" class="contents">${alone("second")}</div>`));
});

Deno.test("kept island HTML follows the props and the language", async () => {
  const render = createPageRenderer({ subpath: "/", manifest });
  const page = (access: string) => () =>
    render({
      title: "Buckets",
      body: <Island name="BucketAccessLabel" component={BucketAccessLabel} props={{ access }} />,
    }).text();
  const island = (html: string) =>
    /data-island="BucketAccessLabel" class="contents">(.*?)<\/div>/.exec(html)![1];
  await loadLocale("de");
  const privateEn = island(await inLocale("en", page("PRIVATE")));
  const publicEn = island(await inLocale("en", page("PUBLIC")));
  const privateDe = island(await inLocale("de", page("PRIVATE")));
  assert.equal(island(await inLocale("en", page("PRIVATE"))), privateEn);
  assert.notEqual(publicEn, privateEn);
  assert.notEqual(privateDe, privateEn);
  assert.equal(island(await inLocale("de", page("PRIVATE"))), privateDe);
});

Deno.test("an island inside an island is refused, not hydrated twice", () => {
  const render = createPageRenderer({ subpath: "/", manifest });
  const Outer = () => (
    <Island name="BucketAccessLabel" component={BucketAccessLabel} props={{ access: "PUBLIC" }} />
  );
  assert.throws(
    () => render({ title: "Nested", body: <Island name="BucketAccessLabel" component={Outer} props={{}} /> }),
    /inside another island/,
  );
});

Deno.test("a page in several scripts reads back exactly, its islands new or kept", async () => {
  const render = createPageRenderer({ subpath: "/", manifest });
  const labels = ["简体中文 🪣", "Größe + % # ?", "ملف العربية"];
  const page = () =>
    render({
      title: "Namen 名前",
      body: (
        <main>
          <h1>Übersicht 🗂️</h1>
          {labels.map((label) => (
            <Island key={label} name="BucketAccessLabel" component={Labelled as never} props={{ label }} />
          ))}
          <p>末尾 — end</p>
        </main>
      ),
    });
  const first = await page().text(); // each island rendered now
  const again = await page().text(); // each island's kept HTML
  assert.equal(again, first);
  const shown = [
    "<title>Namen 名前 | Deck</title>",
    "<h1>Übersicht 🗂️</h1>",
    ...labels.map((label) => `${renderToString(<Labelled label={label} />)}</div>`),
    "<p>末尾 — end</p>",
    "</body></html>",
  ];
  let from = 0;
  for (const piece of shown) {
    const at = first.indexOf(piece, from);
    assert.ok(at >= 0, `${piece} after offset ${from}`);
    from = at + piece.length;
  }
  assert.ok(first.endsWith("</body></html>"));
});
