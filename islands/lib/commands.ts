/**
 * Commands the command palette can run on a page ("create-bucket", "upload-files", "open-group"): the page's
 * island registers what each does while it is mounted. A command for another page is remembered for this tab,
 * the browser goes there, and the island runs it once it has hydrated, told that it arrived by navigation (a
 * file chooser, which needs the user's own key press, then only gets focus).
 */
import { useEffect, useRef } from "react";
import { basePath } from "./request.ts";

export type CommandId = "create-bucket" | "create-user" | "upload-files" | "open-group";

/** What a command does; `arrived` is true when the browser came to this page to run it. */
export type CommandHandler = (arg: string, arrived: boolean) => void;

const handlers = new Map<CommandId, CommandHandler>();
const PENDING = "deck-command";
/** A remembered command older than this is stale (the page it waited for never came). */
const PENDING_MS = 30_000;

interface Pending {
  id: CommandId;
  path: string;
  arg: string;
  at: number;
}

/** Registers the page's handler for a command while the island is mounted (null: not offered here). */
export function useCommand(id: CommandId, handler: CommandHandler | null): void {
  const current = useRef(handler);
  current.current = handler;
  const offered = handler !== null;
  useEffect(() => {
    if (!offered) return;
    const run: CommandHandler = (arg, arrived) => current.current?.(arg, arrived);
    handlers.set(id, run);
    const pending = takePending(id);
    if (pending) run(pending.arg, true);
    return () => void (handlers.get(id) === run && handlers.delete(id));
  }, [id, offered]);
}

/** Whether this page runs the command itself. */
export const isOffered = (id: CommandId) => handlers.has(id);

/**
 * Runs a command on the page at `path` (relative to the console's base, e.g. "buckets"): here when this is
 * that page and it offers the command, otherwise after going there.
 */
export function runCommand(id: CommandId, path: string, arg = ""): void {
  const target = basePath() + path.replace(/^\/+/, "");
  const handler = handlers.get(id);
  if (handler && location.pathname === target) return handler(arg, false);
  const pending: Pending = { id, path: target, arg, at: Date.now() };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  location.assign(target);
}

function takePending(id: CommandId): Pending | null {
  let pending: Pending | null = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(PENDING) ?? "null");
  } catch {
    // Unreadable: drop it below.
  }
  if (!pending || pending.id !== id || pending.path !== location.pathname) return null;
  sessionStorage.removeItem(PENDING);
  return Date.now() - pending.at < PENDING_MS ? pending : null;
}
