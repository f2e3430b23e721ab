/** A list an island starts with (rendered by the server) and reloads after changes; errors go to the banner. */
import { useState } from "react";
import { showErrorBanner } from "./notify.ts";
import { ApiClientError } from "./request.ts";

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
