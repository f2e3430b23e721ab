/**
 * The on-box history survives a restart: the sampler saves it on stop (and every 5 minutes) and the next
 * start reloads it; a damaged file is set aside with a warning, never a failed start. A storage that refuses
 * the scrape leaves the source unavailable with the reason.
 */
import assert from "node:assert/strict";
import { loadConfig } from "../../server/console/config/config.ts";
import { createLogger, silentLogger } from "../../server/lib/http/log.ts";
import { createMetricsService } from "../../server/console/metrics/mod.ts";
import { prometheusBearerToken } from "../../server/lib/s3/prometheus_token.ts";
import { startStorage } from "../s3/fixture.ts";
import { eventually } from "../eventually.ts";

Deno.test("metrics history: saved on stop, restored on start; a damaged file does not stop Deck", async () => {
  const fx = await startStorage();
  const dir = await Deno.makeTempDir({ prefix: "deck-history-" });
  const historyFile = `${dir}/.deck/metrics-history.json`;
  const token = prometheusBearerToken(fx.storage.root);
  const make = (log = silentLogger) =>
    createMetricsService({
      config: loadConfig({}),
      storageUrl: fx.storage.url,
      storageToken: () => token,
      fetch,
      log,
      historyFile,
      sampleIntervalMs: 1000,
    });
  try {
    const first = make();
    await first.start();
    await eventually("two samples in the history", () => first.history!.fine.count >= 2);
    await first.close();
    const saved = JSON.parse(await Deno.readTextFile(historyFile));
    assert.equal(saved.version, 1);
    assert.ok(saved.fine.times.length >= 2);
    assert.equal((await Deno.stat(historyFile)).mode! & 0o777, 0o600);

    const second = make();
    await second.start();
    assert.ok(second.history!.fine.count >= 2, "the saved samples are back before the first new one");
    await second.close();

    await Deno.writeTextFile(historyFile, "{ not json");
    const warnings: string[] = [];
    const third = make(createLogger("warn", (line) => warnings.push(line)));
    await third.start();
    await eventually("a first sample after the damaged file", () => third.history!.fine.count >= 1);
    await third.close();
    assert.ok(warnings.some((w) => w.includes("metrics history not restored")));
  } finally {
    await fx.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("metrics history: a storage that refuses the scrape makes the source unavailable, with the reason", async () => {
  const fx = await startStorage();
  try {
    const service = createMetricsService({
      config: loadConfig({}),
      storageUrl: fx.storage.url,
      storageToken: () => Promise.resolve(null), // no token: the embedded server answers 403
      fetch,
      log: silentLogger,
      historyFile: null,
    });
    await service.start();
    await eventually(
      "the sampler to report the refused scrape",
      () => service.sampler!.status.lastError !== null,
    );
    await service.close();
    const state = service.state();
    assert.equal(state.ok, false);
    assert.match(state.problem!, /403/);
  } finally {
    await fx.close();
  }
});
