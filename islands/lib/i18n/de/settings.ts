/** German texts for settings: configuration, notification targets, tiers, webhooks, identity diagnostics; the licence page. */
import type { settings as english } from "../en/settings.ts";
import type { Translation } from "../types.ts";

export const settings: Translation<typeof english> = {};
