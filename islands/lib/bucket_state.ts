/**
 * State two islands of a bucket page share: the Summary changes the bucket's access policy, and the header's
 * "Access:" line (another island) follows without a reload. Islands on a page load this module once (esbuild
 * puts shared modules in a shared chunk), so a signal here is one value for all of them.
 */
import { signal } from "@preact/signals-react";

/** The bucket's access level once changed on this page; null until then (the server-rendered value holds). */
export const changedBucketAccess = signal<string | null>(null);
