/** German texts for operator mode: tenants, the tenant wizard, pools, pods, volumes, drives. */
import type { operator as english } from "../en/operator.ts";
import type { Translation } from "../types.ts";

export const operator: Translation<typeof english> = {};
