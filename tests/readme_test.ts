import assert from "node:assert/strict";
import { EMBEDDED_LIMITS } from "../routes/embedded_limits.ts";
import { SETTINGS } from "../server/config.ts";

Deno.test("the README's configuration table lists every setting with its flag and default", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  for (const setting of Object.values(SETTINGS) as { env: string; flag?: string; default: string }[]) {
    const row = readme.split("\n").find((line) => line.startsWith(`| \`${setting.env}\` |`));
    assert.ok(row, `${setting.env} is missing from the README`);
    const cells = row.split("|").map((c) => c.trim());
    assert.equal(cells[2], setting.flag ? `\`${setting.flag}\`` : "", `${setting.env} flag`);
    assert.equal(cells[3], setting.default ? `\`${setting.default}\`` : "(unset)", `${setting.env} default`);
  }
  assert.match(readme, /npx -y deno@2\.9\.6 task start/);
  assert.match(readme, /npx -y deno@2\.9\.6 task test/);
});

Deno.test("the README says what the embedded storage does not do yet, in the screens' words", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const section = readme.split("## What the embedded storage does not do yet")[1]?.split("\n## ")[0] ?? "";
  for (const text of Object.values(EMBEDDED_LIMITS)) assert.ok(section.includes(`- ${text}`), `the README lists: ${text}`);
  const listed = section.split("\n").filter((line) => line.startsWith("- "));
  assert.equal(listed.length, Object.keys(EMBEDDED_LIMITS).length, "and nothing the table no longer holds");
});
