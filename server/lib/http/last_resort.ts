/**
 * The last resort against an error nothing caught: a throw in an event handler, a rejected promise nobody
 * awaited. It is logged with its stack and the program keeps serving. Requests have their own catch (a 500,
 * see http_server.ts); this is for what escapes them, which would otherwise end the console and the embedded
 * storage together, for every user, because of one request.
 */

function describe(error: unknown): string {
  return error instanceof Error ? error.stack ?? error.message : String(error);
}

/** Installs the handlers on this thread (the console's, or the storage's worker); `where` names it in the log. */
export function keepRunningOnUncaughtErrors(where: string): void {
  globalThis.addEventListener("error", (event) => {
    event.preventDefault();
    console.error(`${where}: uncaught error (still running): ${describe(event.error ?? event.message)}`);
  });
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    console.error(`${where}: unhandled rejection (still running): ${describe(event.reason)}`);
  });
}
