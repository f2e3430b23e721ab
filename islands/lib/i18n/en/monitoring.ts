/** English texts (the source) for the dashboard, metrics and the tools: trace, logs, audit search, watch, heal, health diagnostics. */
export const monitoring = {} as const;
