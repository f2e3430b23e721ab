/** English texts (the source) for users, groups, policies (list, detail, builder, Access Check), the account page and service accounts. */
export const iam = {} as const;
