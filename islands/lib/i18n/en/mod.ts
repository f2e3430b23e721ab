/**
 * The English catalogue, area by area. An area is what a page's islands ask for: the browser gets only the
 * areas its page uses (the build reads which from the islands' sources), in the page's language.
 */
import { buckets } from "./buckets.ts";
import { common } from "./common.ts";
import { iam } from "./iam.ts";
import { monitoring } from "./monitoring.ts";
import { objects } from "./objects.ts";
import { operator } from "./operator.ts";
import { settings } from "./settings.ts";
import { wizard } from "./wizard.ts";

export const en = { common, iam, buckets, objects, monitoring, settings, operator, wizard };

export type Area = keyof typeof en;
export const AREAS = Object.keys(en) as Area[];

/** Every text's key: "area.screen.what". */
export type MessageKey = { [A in Area]: keyof typeof en[A] }[Area] & string;
