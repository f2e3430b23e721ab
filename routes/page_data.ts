/**
 * Data loading shared by the pages: each piece optional, so one failing call shows a banner, not a blank page.
 * Each piece is named after the section of the screen it fills, so the banner says which section failed
 * ("Access denied: Quota, Versioning") and the section itself can say why it is empty.
 */
import { capitalize, failuresBanner } from "../islands/lib/messages.ts";
import type { AppDeps } from "../server/console/deps.ts";
import { ApiError } from "../server/console/http/errors.ts";
import { type Part, readParts } from "../server/console/services/screen_parts.ts";
import { clientFor } from "../server/console/session/clients.ts";
import type { SessionData } from "../server/console/session/token.ts";
import type { PartFailure } from "../server/lib/contract/screen.ts";
import type { S3Client } from "../server/lib/s3/client.ts";

/** One piece of a page: how to load it, what to show when it fails, and the section name the user sees. */
export type Loader<V> = [load: (client: S3Client) => Promise<V>, fallback: V, section: string];

export interface Loaded<T> {
  data: T;
  /** For the page's banner: every failure, grouped by reason, naming the sections (undefined when all loaded). */
  error?: ApiError;
  /** Per failed piece, the reason to show in its place ("Access denied"), capitalised. */
  failed: Partial<Record<keyof T, string>>;
}

/** Runs the loaders concurrently; failed pieces get their fallback and are reported by section. */
export async function loadAll<T extends Record<string, unknown>>(
  deps: AppDeps,
  session: SessionData,
  loaders: { [K in keyof T]: Loader<T[K]> },
): Promise<Loaded<T>> {
  const client = clientFor(deps, session);
  const parts = Object.fromEntries(
    Object.entries(loaders).map((
      [key, [load, fallback, section]],
    ) => [key, [() => load(client), fallback, section]]),
  ) as { [K in keyof T]: Part<T[K]> };
  const { data, failures } = await readParts<T>(parts);
  const failed: Partial<Record<keyof T, string>> = {};
  for (const { key, error } of failures) failed[key] = capitalize(error.message);
  return { data, error: describeFailures(failures), failed };
}

/**
 * One banner for every failed section, in the order the page declares them: "Access denied: Quota,
 * Versioning", then each section's detail, with the first failure's status.
 */
export function describeFailures(
  failures: { section: string; error: { status: number; message: string; detail: string } }[],
): ApiError | undefined {
  if (failures.length === 0) return undefined;
  // A refused session wins: the page goes to sign-in (renderInShell rethrows it) rather than showing a banner.
  const refused = failures.find((f) => f.error.status === 401);
  if (refused) return new ApiError(401, refused.error.message, { detail: refused.error.detail });
  const { message, detail } = failuresBanner(
    failures.map(({ section, error }) => ({ section, message: error.message, detail: error.detail })),
  );
  return new ApiError(failures[0].error.status, message, { detail });
}

/** The banner for a view model's failed parts (server/console/services/screen_parts.ts), as loadAll's. */
export const viewBanner = (failures: PartFailure[]) =>
  describeFailures(failures.map((failure) => ({ section: failure.section, error: failure })));
