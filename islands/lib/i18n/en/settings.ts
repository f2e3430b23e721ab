/** English texts (the source) for settings: configuration, notification targets, tiers, webhooks, identity diagnostics; the licence page. */
export const settings = {} as const;
