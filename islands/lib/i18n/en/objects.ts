/** English texts (the source) for the object browser: folders, objects, uploads, shares, versions, jobs, search. */
export const objects = {} as const;
