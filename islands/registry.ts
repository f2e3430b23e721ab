/**
 * Every hydrated island, loaded on demand by islands/client.ts. Literal dynamic imports let esbuild emit one
 * chunk per island; the server imports the same components statically for SSR.
 */
export const islands = {
  LoginForm: () => import("./LoginForm.tsx"),
  AccountPage: () => import("./AccountPage.tsx"),
  UsersList: () => import("./UsersList.tsx"),
  UserDetail: () => import("./UserDetail.tsx"),
  GroupsList: () => import("./GroupsList.tsx"),
  PoliciesList: () => import("./PoliciesList.tsx"),
  PolicyDetail: () => import("./PolicyDetail.tsx"),
  BucketsList: () => import("./BucketsList.tsx"),
  BucketHeaderActions: () => import("./BucketHeaderActions.tsx"),
  BucketSummary: () => import("./BucketSummary.tsx"),
  BucketEvents: () => import("./BucketEvents.tsx"),
  BucketReplication: () => import("./BucketReplication.tsx"),
  BucketLifecycle: () => import("./BucketLifecycle.tsx"),
  BucketAccess: () => import("./BucketAccess.tsx"),
} as const satisfies Record<string, () => Promise<{ default: unknown }>>;

export type IslandName = keyof typeof islands;
