/**
 * A screen's data read in parts: each optional, so one failing read leaves its section saying why instead of a
 * blank page. Pages (routes/page_data.ts) and the services that build a screen's view model share it, so a
 * section fails the same way whether the page renders it or the island reloads it.
 */
import type { PartFailure } from "../../lib/contract/screen.ts";
import { type ApiError, toApiError } from "../http/errors.ts";

/** One part of a screen: how to read it, what stands in when it fails, and the section name the user sees. */
export type Part<V> = [read: () => Promise<V>, fallback: V, section: string];

export interface PartsRead<T> {
  data: T;
  /** The failed parts, in the order they were declared. */
  failures: { key: keyof T; section: string; error: ApiError }[];
}

/** Reads the parts concurrently; a failed part gets its fallback and is listed with its section. */
export async function readParts<T extends Record<string, unknown>>(
  parts: { [K in keyof T]: Part<T[K]> },
): Promise<PartsRead<T>> {
  const failures: (PartsRead<T>["failures"][number] & { order: number })[] = [];
  const entries = await Promise.all(
    Object.entries(parts).map(async ([key, [read, fallback, section]], order) => {
      try {
        return [key, await read()] as const;
      } catch (e) {
        failures.push({ key, order, section, error: toApiError(e) });
        return [key, fallback] as const;
      }
    }),
  );
  failures.sort((a, b) => a.order - b.order);
  return {
    data: Object.fromEntries(entries) as T,
    failures: failures.map(({ key, section, error }) => ({ key, section, error })),
  };
}

/**
 * The failures as a view model carries them. A part the storage refused because the session itself is no
 * longer accepted ends the whole view: the caller gets the 401, and the browser goes to sign-in.
 */
export function viewFailures(failures: { section: string; error: ApiError }[]): PartFailure[] {
  const refused = failures.find((f) => f.error.status === 401);
  if (refused) throw refused.error;
  return failures.map(({ section, error }) => ({
    section,
    status: error.status,
    message: error.message,
    detail: error.detail,
  }));
}
