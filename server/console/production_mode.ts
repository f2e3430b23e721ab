/**
 * Imported first by main.ts, before anything loads React, so the server runs as a production server:
 *  - React chooses its build from NODE_ENV when it is first evaluated; without "production" every page was
 *    rendered by the development build, whose prop validation and key checks took most of a page's time
 *    under load (a /buckets page 6x slower). An explicit NODE_ENV (e.g. development) is left alone.
 *  - process.env becomes a plain snapshot of the environment: Deno's process.env asks the runtime on every
 *    read (0.5 µs), and the table library reads NODE_ENV for each memoised cell while a page renders.
 * Tests import the app directly and keep the development checks.
 */
import process from "node:process";

if (!Deno.env.get("NODE_ENV")) Deno.env.set("NODE_ENV", "production");
(process as { env: Record<string, string | undefined> }).env = { ...process.env };
