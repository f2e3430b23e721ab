/** Data loading shared by the pages: each piece optional, so one failing call shows a banner, not a blank page. */
import type { AppDeps } from "../server/deps.ts";
import { clientFor } from "../server/services/storage_clients.ts";
import type { SessionData } from "../server/session/token.ts";
import type { S3Client } from "../server/s3/client.ts";

/** Runs the loaders; the first error is returned for the page's banner, failed pieces get their fallback. */
export async function loadAll<T extends Record<string, unknown>>(
  deps: AppDeps,
  session: SessionData,
  loaders: { [K in keyof T]: [(client: S3Client) => Promise<T[K]>, T[K]] },
): Promise<{ data: T; error?: unknown }> {
  const client = clientFor(deps, session);
  let error: unknown;
  const entries = await Promise.all(Object.entries(loaders).map(async ([key, [load, fallback]]) => {
    try {
      return [key, await load(client)] as const;
    } catch (e) {
      error ??= e;
      return [key, fallback] as const;
    }
  }));
  return { data: Object.fromEntries(entries) as T, error };
}
