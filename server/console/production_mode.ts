/**
 * Imported first by main.ts, before anything loads React, so the server runs as a production server:
 *  - React chooses its build from NODE_ENV when it is first evaluated; without "production" every page was
 *    rendered by the development build, whose prop validation and key checks took most of a page's time
 *    under load (a /buckets page 6x slower). An explicit NODE_ENV (e.g. development) is left alone.
 *  - process.env becomes a plain snapshot of the environment (snapshotProcessEnv): Deno's process.env asks
 *    the runtime on every read (0.5 µs), and the table library reads NODE_ENV for each memoised cell while a
 *    page renders.
 * Tests import the app directly and keep the development checks.
 */
if (!Deno.env.get("NODE_ENV")) Deno.env.set("NODE_ENV", "production");

/**
 * Makes process.env the snapshot. Called by main.ts once the storage thread is on its way: the first use of
 * Node's process loads Deno's Node compatibility (about 30 ms), which the console needs anyway but the
 * storage thread's start should not wait for.
 */
export async function snapshotProcessEnv(): Promise<void> {
  const { default: process } = await import("node:process");
  (process as { env: Record<string, string | undefined> }).env = { ...process.env };
}
