/**
 * What Deck's embedded storage accepts but does not do yet, said plainly on the screens where it matters (and
 * in the README). One row per feature: when a feature works in the embedded storage, delete its row and the
 * screens stop saying it. Shown only when the console runs its own embedded storage; a MinIO server does all
 * of these.
 */
export const EMBEDDED_LIMITS = {
  replication: "Replication rules are saved, but the embedded storage does not copy any object to the target yet.",
  lifecycle: "Lifecycle rules are saved, but the embedded storage does not expire or delete any object yet.",
  tiers: "Transitions to a remote tier are saved, but no data moves to the tier yet.",
  notifications: "Event subscriptions are saved, but the embedded storage does not deliver events to notification targets yet.",
} as const;

export type EmbeddedLimit = keyof typeof EMBEDDED_LIMITS;

/** The texts of the given limits, or none when the storage is not the embedded one (for LimitsNotice). */
export const embeddedLimits = (embedded: boolean | undefined, ...features: EmbeddedLimit[]): string[] => (embedded ? features.map((f) => EMBEDDED_LIMITS[f]) : []);
