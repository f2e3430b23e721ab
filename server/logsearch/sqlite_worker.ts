/**
 * The thread the SQLite audit store runs on (sqlite_thread.ts starts it): it opens the file it is given and
 * answers each call in the order the calls came. node:sqlite is synchronous, so each call holds this thread,
 * never the console's.
 */
/// <reference lib="deno.worker" />
import { SqliteAuditStore } from "./sqlite_store.ts";
import type { StoreAnswer, StoreCall } from "./sqlite_thread.ts";

let store: SqliteAuditStore | null = null;

function answer(call: StoreCall): unknown {
  if (call.op === "open") {
    store = SqliteAuditStore.open(call.path);
    return null;
  }
  if (!store) throw new Error("the audit store is not open");
  switch (call.op) {
    case "insert":
      return store.insert(call.rows);
    case "query":
      return store.query(call.query);
    case "deleteBefore":
      return store.deleteBefore(call.micros);
    case "count":
      return store.count();
    case "close": {
      const closing = store.close();
      store = null;
      return closing;
    }
  }
}

self.onmessage = async (event: MessageEvent<StoreCall>) => {
  const { id } = event.data;
  let reply: StoreAnswer;
  try {
    reply = { id, value: await answer(event.data) };
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) };
  }
  self.postMessage(reply);
};
