/** German texts for the dashboard, metrics and the tools: trace, logs, audit search, watch, heal, health diagnostics. */
import type { monitoring as english } from "../en/monitoring.ts";
import type { Translation } from "../types.ts";

export const monitoring: Translation<typeof english> = {};
