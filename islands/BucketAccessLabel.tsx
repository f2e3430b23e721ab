/** The bucket header's "Access: Private" line; it follows a change made in the Summary (islands/lib/bucket_state.ts). */
import { useSignals } from "@preact/signals-react/runtime";
import { changedBucketAccess } from "./lib/bucket_state.ts";
import { capitalizeWord } from "./lib/format.ts";

export interface BucketAccessLabelProps {
  /** The access level when the page was rendered (PRIVATE, PUBLIC or CUSTOM). */
  access: string;
}

export default function BucketAccessLabel({ access }: BucketAccessLabelProps) {
  useSignals();
  return (
    <p className="text-sm text-base-content/70" data-testid="bucket-access">
      Access: {capitalizeWord(changedBucketAccess.value ?? access)}
    </p>
  );
}
