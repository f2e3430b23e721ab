/**
 * The settings contract names its texts by message key as plain strings (server/lib/contract/ imports no
 * catalogue), so no type check sees a wrong one: every key it names must be in the English catalogue, and the
 * forms' English must read as before the texts moved there.
 */
import assert from "node:assert/strict";
import { settings } from "../lib/i18n/en/settings.ts";
import { CONFIGURATIONS } from "../../server/lib/contract/settings_forms.ts";
import { NOTIFICATION_SERVICES } from "../../server/lib/contract/settings_targets.ts";
import { fieldError } from "../../server/lib/contract/settings_fields.ts";
import { de } from "../lib/i18n/de/mod.ts";
import { setMessageSource } from "../lib/i18n/t.ts";
import { zhHans } from "../lib/i18n/zh-Hans/mod.ts";
import { fieldHelp, fieldLabel, fieldPlaceholder } from "./texts.ts";

const CONTRACT = ["settings.ts", "settings_fields.ts", "settings_forms.ts", "settings_targets.ts"];

Deno.test("every message key the settings contract names is in the catalogue", async () => {
  const known = new Set(Object.keys(settings));
  for (const file of CONTRACT) {
    const source = await Deno.readTextFile(new URL(`../../server/lib/contract/${file}`, import.meta.url));
    const keys = [...source.matchAll(/["'`](settings\.[A-Za-z0-9.]+)["'`]/g)].map((m) => m[1]);
    assert.deepEqual(keys.filter((key) => !known.has(key)), [], file);
  }
});

Deno.test("the checks of every form answer with message keys", () => {
  const known = new Set<string>(Object.keys(settings));
  const samples = ["", "x", "1", "7", "on", "http://a", ".txt", "a/b", "%s", "host:1", "5m", "/tmp"];
  for (const def of [...CONFIGURATIONS, ...NOTIFICATION_SERVICES]) {
    for (const field of def.fields) {
      for (const sample of samples) {
        const problem = fieldError({ ...field, required: true }, sample);
        assert.ok(problem === "" || known.has(problem), `${def.id}.${field.name}: ${problem}`);
      }
    }
  }
});

Deno.test("the forms' texts are looked up in the language in force", () => {
  const region = CONFIGURATIONS.find((c) => c.id === "region")!.fields[0];
  const brokers = NOTIFICATION_SERVICES.find((s) => s.id === "kafka")!.fields[0];
  setMessageSource(() => ({ locale: "en", messages: settings }));
  assert.equal(fieldLabel(region), "Server Location");
  assert.equal(fieldPlaceholder(brokers), "Enter Brokers");
  setMessageSource(() => ({ locale: "de", messages: de.settings }));
  assert.equal(fieldLabel(region), "Serverstandort");
  assert.equal(fieldPlaceholder(brokers), "Broker eingeben");
  assert.equal(fieldHelp(region), 'Name des Standorts des Servers, z. B. "us-west-rack2"');
  setMessageSource(() => ({ locale: "zh-Hans", messages: zhHans.settings }));
  assert.equal(fieldPlaceholder(brokers), "请输入 Broker");
});
