import assert from "node:assert/strict";
import { SETTINGS } from "../server/console/config/settings.ts";

Deno.test("the README's configuration table lists every setting with its flag and default", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  const rows = readme.split("\n").filter((line) => line.startsWith("|")).map((line) =>
    line.split("|").map((cell) => cell.trim())
  );
  for (const setting of Object.values(SETTINGS) as { env: string; flag?: string; default: string }[]) {
    // The formatter pads table cells, so rows are matched cell by cell, not by their text.
    const cells = rows.find((row) => row[1] === `\`${setting.env}\``);
    assert.ok(cells, `${setting.env} is missing from the README`);
    assert.equal(cells[2], setting.flag ? `\`${setting.flag}\`` : "", `${setting.env} flag`);
    assert.equal(cells[3], setting.default ? `\`${setting.default}\`` : "(unset)", `${setting.env} default`);
  }
  assert.match(readme, /npx -y deno@2\.9\.6 task start/);
  assert.match(readme, /npx -y deno@2\.9\.6 task test/);
});
