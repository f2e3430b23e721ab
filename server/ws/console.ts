/**
 * /ws/console (api-index §8): the storage's console log, the last 100 entries first, all kinds, with the
 * time shown as the original console showed it ("15:04:05 UTC 01/02/2006").
 */
import type { ConsoleMessage } from "../contract/tools.ts";
import type { AppDeps } from "../deps.ts";
import { consoleLog, type LogInfo } from "../s3/admin/live.ts";
import { relay } from "./relay.ts";

const LINES = 100;

const pad = (n: number) => String(n).padStart(2, "0");

/** Go layout "15:04:05 MST 01/02/2006", in UTC; text that is not a time is kept. */
export function logTime(text: string): string {
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return text;
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} UTC ${
    pad(date.getUTCMonth() + 1)
  }/${pad(date.getUTCDate())}/${date.getUTCFullYear()}`;
}

export function consoleMessage(info: LogInfo): ConsoleMessage {
  return {
    ...info,
    ConsoleMsg: info.ConsoleMsg?.replace(/^\n/, ""),
    time: info.time ? logTime(info.time) : info.time,
  };
}

export const consoleRelay = (deps: AppDeps) =>
  relay(deps, {
    parse: () => null,
    permission: () => ({ action: "admin:ConsoleLog" }),
    async *open({ client, signal }) {
      for await (
        const info of consoleLog(client, { node: "", limit: LINES, logType: "all" }, signal)
      ) yield consoleMessage(info);
    },
  });
