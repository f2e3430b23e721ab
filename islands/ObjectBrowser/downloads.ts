/**
 * Downloads as plain browser downloads (streamed by the console, never a blob in the page): a hidden link
 * for one object, a hidden form POST for a zip of a selection. The answer sets a short-lived cookie named
 * after the download's id, which is how the page knows the download has begun (the spinner of spec 3
 * §2.4), whatever its size.
 */
import { objectUrls } from "../lib/api/objects.ts";
import { showSnackbar } from "../lib/notify.ts";
import { t } from "../lib/i18n/t.ts";

/** Spec 3 §9: downloads above 100 MiB get a notice. */
export const LARGE_DOWNLOAD = 104857600;
const STARTED_COOKIE = "deck-download";

const newId = () => crypto.randomUUID().replaceAll("-", "").slice(0, 20);

/** Resolves once the response for `id` has started (or after `timeoutMs`, to never spin forever). */
function whenStarted(id: string, timeoutMs = 120_000): Promise<void> {
  const started = () => document.cookie.split(";").some((c) => c.trim() === `${STARTED_COOKIE}=${id}`);
  return new Promise((resolve) => {
    const begun = Date.now();
    const timer = setInterval(() => {
      if (started() || Date.now() - begun > timeoutMs) {
        clearInterval(timer);
        resolve();
      }
    }, 200);
  });
}

function click(href: string): void {
  const link = document.createElement("a");
  link.href = href;
  link.rel = "noopener";
  link.download = "";
  document.body.append(link);
  link.click();
  link.remove();
}

/** Downloads one object; resolves when the browser has started receiving it. */
export function downloadObject(
  bucket: string,
  key: string,
  size: number,
  versionId?: string | null,
): Promise<void> {
  if (size > LARGE_DOWNLOAD) {
    showSnackbar(t("objects.download.started"), "info");
  }
  const id = newId();
  click(objectUrls.download(bucket, key, versionId, id));
  return whenStarted(id);
}

/** Downloads a folder as one zip (streamed as it is built). */
export function downloadFolder(bucket: string, prefix: string): Promise<void> {
  const id = newId();
  click(objectUrls.zipFolder(bucket, prefix, id));
  return whenStarted(id);
}

/** Downloads a selection (objects and folders of one folder) as one zip, named after that folder. */
export function downloadSelection(bucket: string, base: string, paths: string[]): Promise<void> {
  const id = newId();
  const form = document.createElement("form");
  form.method = "post";
  form.action = objectUrls.zipSelection(bucket, id);
  form.style.display = "none";
  const field = (name: string, value: string) => {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.append(input);
  };
  field("base", base);
  for (const path of paths) field("path", path);
  document.body.append(form);
  form.submit();
  form.remove();
  return whenStarted(id);
}
