/** The Simplified Chinese catalogue, area by area (the same areas and keys as English). */
import type { Area } from "../en/mod.ts";
import type { Messages } from "../types.ts";
import { buckets } from "./buckets.ts";
import { common } from "./common.ts";
import { iam } from "./iam.ts";
import { monitoring } from "./monitoring.ts";
import { objects } from "./objects.ts";
import { operator } from "./operator.ts";
import { settings } from "./settings.ts";
import { wizard } from "./wizard.ts";

export const zhHans: Record<Area, Messages> = {
  common,
  iam,
  buckets,
  objects,
  monitoring,
  settings,
  operator,
  wizard,
};
