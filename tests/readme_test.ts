import assert from "node:assert/strict";
import { SETTINGS } from "../server/config_settings.ts";

Deno.test("the README's configuration table lists every setting with its flag and default", async () => {
  const readme = await Deno.readTextFile(new URL("../README.md", import.meta.url));
  for (const setting of Object.values(SETTINGS) as { env: string; flag?: string; default: string }[]) {
    // deno fmt pads the table's cells: the name is followed by spaces before the next bar.
    const row = readme.split("\n").find((line) => new RegExp(`^\\| \`${setting.env}\` +\\|`).test(line));
    assert.ok(row, `${setting.env} is missing from the README`);
    const cells = row.split("|").map((c) => c.trim());
    assert.equal(cells[2], setting.flag ? `\`${setting.flag}\`` : "", `${setting.env} flag`);
    assert.equal(cells[3], setting.default ? `\`${setting.default}\`` : "(unset)", `${setting.env} default`);
  }
  assert.match(readme, /npx -y deno@2\.9\.6 task start/);
  assert.match(readme, /npx -y deno@2\.9\.6 task test/);
});
