/** The bucket header's "Access: Private" line; it follows a change made in the Summary (islands/lib/bucket_state.ts). */
import { useSignals } from "@preact/signals-react/runtime";
import { changedBucketAccess } from "./lib/bucket_state.ts";
import { accessLevelText } from "./lib/bucket_texts.ts";
import { t } from "./lib/i18n/t.ts";

export interface BucketAccessLabelProps {
  /** The access level when the page was rendered (PRIVATE, PUBLIC or CUSTOM). */
  access: string;
}

export default function BucketAccessLabel({ access }: BucketAccessLabelProps) {
  useSignals();
  return (
    <p className="text-sm text-base-content/70" data-testid="bucket-access">
      {t("buckets.detail.access", { access: accessLevelText(changedBucketAccess.value ?? access) })}
    </p>
  );
}
