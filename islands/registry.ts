/**
 * Every hydrated island, loaded on demand by islands/client.ts. Literal dynamic imports let esbuild emit one
 * chunk per island; the server imports the same components statically for SSR.
 */
export const islands = {
  LoginForm: () => import("./LoginForm.tsx"),
} as const satisfies Record<string, () => Promise<{ default: unknown }>>;

export type IslandName = keyof typeof islands;
