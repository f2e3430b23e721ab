/**
 * Starting the real program (main.ts as a process). Two Decks on one host with default settings (each with
 * its own console port, storage address and data directory) both start and sign in: the built-in log search
 * takes a free port instead of a fixed one (it used to take 127.0.0.1:9091 and the second Deck died). A port
 * that is taken ends the start with one line naming the setting and the address, and a non-zero exit status,
 * not a stack trace.
 */
import assert from "node:assert/strict";
import { ConsoleClient } from "../helpers.ts";
import { type Deck, DECK_ROOT, exitOf, ready, spawnDeck, stop } from "../deck_process.ts";
import { freePort } from "../storage_process.ts";

async function signsIn(deck: Deck): Promise<void> {
  const client = new ConsoleClient(deck.consoleUrl);
  const res = await client.request("POST", "/api/v1/login", DECK_ROOT);
  assert.equal(res.status, 201, `${deck.consoleUrl}: ${await res.text()}`);
  const session = await client.json<{ features: string[] }>("GET", "/api/v1/session", undefined, 200);
  assert.deepEqual(session.features, ["log-search"], "each has its own audit log search");
}

Deno.test({
  name: "main.ts: two Decks with default settings on one host both start and sign in",
  sanitizeResources: false,
  sanitizeOps: false,
}, async () => {
  const dirs = [await Deno.makeTempDir({ prefix: "deck-a-" }), await Deno.makeTempDir({ prefix: "deck-b-" })];
  const decks: Deck[] = [];
  try {
    for (const dataDir of dirs) {
      decks.push(spawnDeck(dataDir, { console: await freePort(), storage: await freePort() }));
    }
    await Promise.all(decks.map(ready));
    for (const deck of decks) await signsIn(deck);
    const searchAt = decks.map((deck) => /Audit log search at (\S+)/.exec(deck.output())?.[1]);
    assert.ok(
      searchAt[0] && searchAt[1] && searchAt[0] !== searchAt[1],
      `log search at ${searchAt.join(", ")}`,
    );
  } finally {
    await Promise.all(decks.map(stop));
    for (const dir of dirs) await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test({
  name: "main.ts: a taken port ends the start with one line naming the setting, and exit status 1",
  sanitizeResources: false,
  sanitizeOps: false,
}, async (t) => {
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const address = `127.0.0.1:${(taken.addr as Deno.NetAddr).port}`;
  const port = (taken.addr as Deno.NetAddr).port;
  const cases = [
    { setting: "CONSOLE_PORT", ports: async () => ({ console: port, storage: await freePort() }), env: {} },
    {
      setting: "CONSOLE_STORAGE_ADDRESS",
      ports: async () => ({ console: await freePort(), storage: port }),
      env: {},
    },
    {
      setting: "CONSOLE_LOG_SEARCH_ADDRESS",
      ports: async () => ({ console: await freePort(), storage: await freePort() }),
      env: { CONSOLE_LOG_SEARCH_ADDRESS: address },
    },
  ];
  try {
    // Started together: each exits by itself, and the three take no longer than one.
    const runs = await Promise.all(cases.map(async (c) => {
      const dataDir = await Deno.makeTempDir({ prefix: "deck-taken-" });
      const deck = spawnDeck(dataDir, await c.ports(), c.env);
      return { ...c, dataDir, deck, status: await exitOf(deck) };
    }));
    for (const { setting, deck, status, dataDir } of runs) {
      await t.step(setting, () => {
        const output = deck.output(Infinity);
        assert.ok(status, `Deck kept running with ${setting} taken:\n${output}`);
        assert.equal(status.code, 1, output);
        const lines = output.split("\n").filter((line) => line.includes("cannot start"));
        assert.deepEqual(lines, [`Deck cannot start: ${setting}: ${address} is already in use`]);
        assert.doesNotMatch(output, /^\s+at |Uncaught|error:|Deck console:/m, "no stack trace, no console");
      });
      await stop(deck);
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  } finally {
    taken.close();
  }
});
