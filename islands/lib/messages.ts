/**
 * The spec's message rules (spec 1 §8), shared by the browser (banner, snackbar, dialogs) and the server
 * (banners rendered with a page): capitalise the first letter, and drop a detail that only repeats the message.
 */
import { t } from "./i18n/t.ts";

/** "access denied" → "Access denied". */
export const capitalize = (text: string) => (text ? text[0].toUpperCase() + text.slice(1) : text);

const comparable = (text: string) => text.trim().replace(/[.!]+$/, "").toLowerCase();

/**
 * The detail to show beside a message: capitalised, and "" when it only repeats the message, also when the
 * two differ only in case or a final full stop ("access denied" / "Access Denied.").
 */
export const detailBeside = (
  message: string,
  detail: string,
) => (detail && comparable(detail) !== comparable(message) ? capitalize(detail) : "");

/**
 * One banner for the sections of a screen that could not be read, in the order given: the reasons, each with
 * the sections it hit ("Access denied: Versioning, Quota"), and each section's detail on a line of its own.
 */
export function failuresBanner(
  failures: { section: string; message: string; detail: string }[],
): { message: string; detail: string } {
  const byReason = new Map<string, string[]>();
  for (const { section, message } of failures) {
    byReason.set(capitalize(message), [...(byReason.get(capitalize(message)) ?? []), section]);
  }
  const list = t("common.list.separator");
  return {
    message: [...byReason].map(([reason, sections]) =>
      t("common.failures.reason", { reason, sections: sections.join(list) })
    ).join(t("common.failures.separator")),
    detail: failures.map(({ section, message, detail }) =>
      t("common.failures.detail", { section, detail: detail || message })
    ).join("\n"),
  };
}
