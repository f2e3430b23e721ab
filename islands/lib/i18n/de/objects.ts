/** German texts for the object browser: folders, objects, uploads, shares, versions, jobs, search. */
import type { objects as english } from "../en/objects.ts";
import type { Translation } from "../types.ts";

export const objects: Translation<typeof english> = {};
