/**
 * The loading text of slow operations (spec 3 §2.4, §9): 'Loading...', after 3 s 'This operation is taking
 * longer than expected...', after 6 s the same with the elapsed seconds; checked each second.
 */
import { useEffect, useState } from "react";
import { t } from "../lib/i18n/t.ts";

export function slowHintText(elapsedSeconds: number): string {
  if (elapsedSeconds >= 6) return t("objects.slow.longSeconds", { seconds: elapsedSeconds });
  if (elapsedSeconds >= 3) return t("objects.slow.long");
  return t("objects.slow.loading");
}

export function SlowHint() {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <div
      className="flex items-center gap-2 p-4 text-sm text-base-content/70"
      role="status"
      data-testid="slow-hint"
    >
      <span className="loading loading-spinner loading-sm" aria-hidden="true" />
      {slowHintText(elapsed)}
    </div>
  );
}
