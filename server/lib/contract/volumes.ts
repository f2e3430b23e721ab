/** Wire types and inputs of operator mode's storage area: volume claims and DirectCSI drives (api-index §10). */
import * as s from "./schema.ts";

export interface PvcInfo {
  name: string;
  namespace: string;
  status: string;
  volume: string;
  tenant: string;
  capacity: string;
  storageClass: string;
  age: string;
}

export interface DriveInfo {
  drive: string;
  capacity: number;
  allocated: number;
  volumes: number;
  node: string;
  status: string;
  message?: string;
}

export interface FormatIssue {
  node: string;
  drive: string;
  error: string;
}

/** The phrase the format dialog asks for (spec 3 §9), required by the server too. */
export const FORMAT_CONFIRMATION = "YES, PROCEED";

export const FormatDrivesInput = s.object({
  drives: s.array(s.string({ min: 1 }), { min: 1, max: 10_000 }),
  force: s.boolean(),
  confirm: s.optional(s.string()),
});
export type FormatDrivesInput = s.Infer<typeof FormatDrivesInput>;
