/** English texts (the source) for operator mode: tenants, the tenant wizard, pools, pods, volumes, drives. */
export const operator = {} as const;
