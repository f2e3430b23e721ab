/**
 * An object's preview by its extension (spec 3 §9): images (jpg, jpeg, gif, png) and text (pdf, txt) 500 px
 * high, audio (wav, mp3, aac) 150 px, video (mp4, avi, mpg) 350 px, anything else has none (250 px notice).
 * The console serves previews with a fixed type and a sandbox, so an object cannot script the page.
 */
import { previewKindOf } from "../../server/lib/contract/content_types.ts";
import { objectUrls } from "../lib/api/objects.ts";
import { t } from "../lib/i18n/t.ts";

export const PREVIEW_HEIGHTS = { image: 500, text: 500, audio: 150, video: 350, none: 250 } as const;

export function PreviewFrame(
  { bucket, objectKey, versionId }: { bucket: string; objectKey: string; versionId?: string | null },
) {
  const kind = previewKindOf(objectKey);
  const src = objectUrls.preview(bucket, objectKey, versionId);
  const name = objectKey.slice(objectKey.lastIndexOf("/") + 1);
  if (kind === "image") {
    return (
      <div className="flex justify-center" style={{ height: PREVIEW_HEIGHTS.image }}>
        <img src={src} alt={name} className="max-h-full max-w-full object-contain" />
      </div>
    );
  }
  if (kind === "text") {
    return (
      <iframe
        src={src}
        title={t("objects.preview.of", { name })}
        className="w-full border border-base-300 rounded bg-white"
        style={{ height: PREVIEW_HEIGHTS.text }}
      />
    );
  }
  if (kind === "audio") {
    return (
      <div style={{ height: PREVIEW_HEIGHTS.audio }} className="flex items-center">
        <audio src={src} controls className="w-full" aria-label={t("objects.preview.audio", { name })} />
      </div>
    );
  }
  if (kind === "video") {
    return (
      <video
        src={src}
        controls
        className="w-full bg-black rounded"
        style={{ height: PREVIEW_HEIGHTS.video }}
        aria-label={t("objects.preview.video", { name })}
      />
    );
  }
  return (
    <div
      className="flex items-center justify-center text-base-content/70"
      style={{ height: PREVIEW_HEIGHTS.none }}
    >
      {t("objects.preview.none")}
    </div>
  );
}
