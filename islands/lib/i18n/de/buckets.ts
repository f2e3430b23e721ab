/** German texts for the buckets list and a bucket's pages: summary, events, replication, lifecycle, access, prefix rules. */
import type { buckets as english } from "../en/buckets.ts";
import type { Translation } from "../types.ts";

export const buckets: Translation<typeof english> = {};
