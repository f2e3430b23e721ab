/**
 * A list or a screen's view model an island starts with (rendered by the server) and reloads after changes;
 * errors go to the banner.
 */
import { useEffect, useState } from "react";
import type { PartFailure } from "../../server/lib/contract/screen.ts";
import { showErrorBanner } from "./notify.ts";
import { ApiClientError } from "./request.ts";
import { failuresBanner } from "./messages.ts";

export function reportError(error: unknown): void {
  if (error instanceof ApiClientError) showErrorBanner(error.message, error.detail);
  else showErrorBanner(error instanceof Error ? error.message : String(error));
}

export function useList<T>(load: () => Promise<T>, initial: T) {
  const [value, setValue] = useState<T>(initial);
  async function reload() {
    try {
      setValue(await load());
    } catch (error) {
      reportError(error);
    }
  }
  return { value, setValue, reload };
}

/**
 * The names a dialog offers to choose from (groups, policies, users), read when the dialog opens: read with
 * the page, they cost every view of it storage calls for a dialog most views never open. `given` names are
 * used as they are (a screen whose view model already holds them). Null while they load; none after a
 * failure, which goes to the banner.
 */
export function useNames(load: () => Promise<string[]>, given?: string[]): string[] | null {
  const [names, setNames] = useState<string[] | null>(given ?? null);
  useEffect(() => {
    if (given) return;
    let open = true;
    load().then(
      (loaded) => open && setNames(loaded),
      (error) => {
        if (!open) return;
        reportError(error);
        setNames([]);
      },
    );
    return () => {
      open = false;
    };
  }, []);
  return given ?? names;
}

/**
 * The failures a reload found that the screen was not already showing. Only these reach the banner: a section
 * that said "Access denied" before a change and says it still is no news, and a banner right after a save
 * would read as if the save had failed.
 */
export const newFailures = (before: PartFailure[], after: PartFailure[]) =>
  after.filter((f) => !before.some((b) => b.section === f.section && b.message === f.message));

/**
 * A screen's view model, as the page rendered it, read again whole through the screen's one endpoint: the
 * sections say what the page would say now. A reload that fails as a whole keeps what is shown and goes to
 * the banner; so do failed parts that are news. `reload` resolves with the new view (undefined on failure).
 */
export function useView<V extends { failures: PartFailure[] }>(load: () => Promise<V>, initial: V) {
  const [view, setView] = useState<V>(initial);
  const [loading, setLoading] = useState(false);
  async function reload(): Promise<V | undefined> {
    setLoading(true);
    try {
      const next = await load();
      const fresh = newFailures(view.failures, next.failures);
      setView(next);
      if (fresh.length > 0) {
        const banner = failuresBanner(fresh);
        showErrorBanner(banner.message, banner.detail);
      }
      return next;
    } catch (error) {
      reportError(error);
      return undefined;
    } finally {
      setLoading(false);
    }
  }
  return { view, setView, loading, reload };
}
