/**
 * /ws/heal/{bucket}?prefix=&recursive=&force-start=&force-stop=&remove=&dry-run=&scan= (api-index §8): starts
 * a heal on the storage, polls it about once a second and sends the running totals: items and objects
 * scanned and healed, bytes scanned, and how many items were Green/Yellow/Red/Grey before and after.
 *
 * Colours: with erasure parity, MinIO's table of surplus shards against parity (as the original console);
 * without parity (a single drive, like the embedded server) an item is Green when its drive is ok, Red when
 * an object's data is corrupt or missing, Grey when metadata is unreadable or the state is unknown.
 * Each message carries only the latest poll's items, so a heal of millions of objects does not grow one
 * message without bound (the original resent every item each second).
 */
import type { Context } from "hono";
import type { HealColor, HealItemStatus, HealMessage } from "../../lib/contract/tools.ts";
import type { AppDeps } from "../deps.ts";
import type { AppEnv } from "../session/env.ts";
import { type HealResultItem, healStart, healStatus, type HealTaskStatus } from "../../lib/s3/admin/live.ts";
import { bucketParam, flag, pause } from "./params.ts";
import { relay } from "./relay.ts";

const POLL_MS = 1000;

export interface HealInput {
  bucket: string;
  prefix: string;
  forceStart: boolean;
  forceStop: boolean;
  opts: { recursive: boolean; dryRun: boolean; remove: boolean; scanMode: number };
}

export function parseHealInput(c: Context<AppEnv>): HealInput {
  return {
    bucket: bucketParam(c),
    prefix: c.req.query("prefix") ?? "",
    forceStart: flag(c, "force-start"),
    forceStop: flag(c, "force-stop"),
    opts: {
      recursive: flag(c, "recursive"),
      dryRun: flag(c, "dry-run"),
      remove: flag(c, "remove"),
      scanMode: c.req.query("scan") === "deep" ? 2 : 1,
    },
  };
}

/** MinIO's colour table: row = parity, columns = the surplus at or under which Red, Yellow, Green apply. */
const COLOUR_TABLE: Record<number, number[]> = {
  1: [0, -1, 1],
  2: [0, 1, 2],
  3: [1, 2, 3],
  4: [1, 2, 4],
  5: [1, 3, 5],
  6: [2, 4, 6],
  7: [2, 4, 7],
  8: [2, 5, 8],
};
const COLOUR_ORDER: HealColor[] = ["Red", "Yellow", "Green"];

function tableColour(surplus: number, parity: number): HealColor {
  if (surplus < 0) return "Grey";
  const row = COLOUR_TABLE[parity];
  for (const [index, limit] of row.entries()) {
    if (limit !== -1 && surplus <= limit) return COLOUR_ORDER[index];
  }
  return "Green";
}

const count = (item: HealResultItem, when: "before" | "after", states: string[]) =>
  (item[when].drives ?? []).filter((d) => states.includes(d.state)).length;

export function healColour(item: HealResultItem, when: "before" | "after"): HealColor {
  const online = count(item, when, ["ok"]);
  const drives = item[when].drives?.length ?? 0;
  const parity = item.parityBlocks ?? 0;
  if (item.type === "object" && parity >= 1 && parity <= 8 && item.dataBlocks) {
    return tableColour(online - item.dataBlocks, parity);
  }
  if (item.type !== "object" && item.diskCount > 2 && item.setCount > 0) {
    const perSet = item.diskCount / item.setCount;
    const quorum = Math.floor(perSet / 2) + 1;
    const replicas = perSet - quorum;
    if (replicas >= 1 && replicas <= 8) {
      return tableColour(Math.floor(online / item.setCount) - quorum, replicas);
    }
  }
  if (drives > 0 && online === drives) return "Green";
  if (item.type === "object" && count(item, when, ["corrupt", "missing"]) > 0) return "Red";
  return "Grey";
}

function itemName(item: HealResultItem): { type: string; name: string } {
  if (item.type === "metadata") return { type: "system", name: item.detail };
  if (item.type === "bucket-metadata") {
    return { type: "system", name: `bucket-metadata:${item.bucket}/${item.object}` };
  }
  return { type: item.type, name: `${item.bucket}/${item.object}` };
}

/** Running totals of one heal, as the original console kept them. */
export class HealTotals {
  readonly message: HealMessage = {
    healDuration: 0,
    bytesScanned: 0,
    objectsScanned: 0,
    itemsScanned: 0,
    objectsHealed: 0,
    itemsHealed: 0,
    itemsHealthStatus: [],
    healthBeforeCols: { Green: 0, Yellow: 0, Red: 0, Grey: 0 },
    healthAfterCols: { Green: 0, Yellow: 0, Red: 0, Grey: 0 },
  };

  update(status: HealTaskStatus, now = Date.now()): HealMessage {
    this.message.healDuration = Math.max(0, Math.round((now - Date.parse(status.startTime)) / 1000));
    this.message.itemsHealthStatus = (status.items ?? []).map((item) => this.#add(item));
    return structuredClone(this.message);
  }

  #add(item: HealResultItem): HealItemStatus {
    const m = this.message;
    if (item.type === "object") {
      if (item.objectSize >= 0) m.bytesScanned += item.objectSize;
      m.objectsScanned++;
    }
    m.itemsScanned++;
    const [onlineBefore, onlineAfter] = [count(item, "before", ["ok"]), count(item, "after", ["ok"])];
    if (onlineAfter > onlineBefore) {
      if (item.type === "object") m.objectsHealed++;
      m.itemsHealed++;
    }
    const before = healColour(item, "before");
    const after = healColour(item, "after");
    m.healthBeforeCols[before]++;
    m.healthAfterCols[after]++;
    const side = (when: "before" | "after", colour: HealColor) => ({
      color: colour.toLowerCase(),
      online: count(item, when, ["ok"]),
      missing: count(item, when, ["missing"]),
      corrupted: count(item, when, ["corrupt"]),
      offline: count(item, when, ["offline"]),
    });
    return {
      status: "success",
      ...itemName(item),
      before: side("before", before),
      after: side("after", after),
      size: item.type === "object" ? item.objectSize : 0,
      detail: item.detail,
    };
  }
}

export const healRelay = (deps: AppDeps) =>
  relay(deps, {
    parse: parseHealInput,
    permission: () => ({ action: "admin:Heal" }),
    async *open({ client, input, signal }) {
      const started = await healStart(client, input.bucket, input.prefix, input.opts, {
        forceStart: input.forceStart,
        forceStop: input.forceStop,
      }, signal);
      if (input.forceStop) return;
      const totals = new HealTotals();
      while (!signal.aborted) {
        const status = await healStatus(client, input.bucket, input.prefix, started.clientToken, signal);
        yield totals.update(status);
        if (status.summary === "finished") return;
        if (status.summary === "stopped") throw new Error(`heal had an error - ${status.detail}`);
        await pause(POLL_MS, signal);
      }
    },
  });
