/** The IAM policy language: parse with positions, validate, evaluate, bucket access presets. Browser-safe. */
export * from "./types.ts";
export * from "./json_source.ts";
export * from "./validate.ts";
export * from "./evaluate.ts";
export * from "./actions.ts";
export * from "./bucket_access.ts";
