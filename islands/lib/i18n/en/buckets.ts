/** English texts (the source) for the buckets list and a bucket's pages: summary, events, replication, lifecycle, access, prefix rules. */
export const buckets = {} as const;
