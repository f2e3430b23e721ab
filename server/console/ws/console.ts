/**
 * /ws/console (api-index §8): the storage's console log, the last 100 entries first, all kinds. The time
 * stays RFC 3339 (the original reformatted it as "15:04:05 UTC 01/02/2006"): the page shows it in the
 * console's one date format.
 */
import type { ConsoleMessage } from "../../lib/contract/tools.ts";
import type { AppDeps } from "../deps.ts";
import { type LogInfo, openConsoleLog } from "../../lib/s3/admin/live.ts";
import { mapMessages, relay } from "./relay.ts";

const LINES = 100;

export function consoleMessage(info: LogInfo): ConsoleMessage {
  return { ...info, ConsoleMsg: info.ConsoleMsg?.replace(/^\n/, "") };
}

export const consoleRelay = (deps: AppDeps) =>
  relay(deps, {
    parse: () => null,
    permission: () => ({ action: "admin:ConsoleLog" }),
    async open({ client, signal }) {
      return mapMessages(
        await openConsoleLog(client, { node: "", limit: LINES, logType: "all" }, signal),
        consoleMessage,
      );
    },
  });
