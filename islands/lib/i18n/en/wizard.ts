/** English texts (the source) for the operator's Create Tenant wizard: every step, its fields, validations and the preview. */
export const wizard = {} as const;
