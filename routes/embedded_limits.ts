/**
 * What Deck's embedded storage accepts but does not do yet, said plainly on the screens where it matters (and
 * in the README). One row per feature: when a feature works in the embedded storage, delete its row and the
 * screens stop saying it. Shown only when the console runs its own embedded storage; a MinIO server does all
 * of these.
 */
export const EMBEDDED_LIMITS = {
  encryption: "Encryption settings (SSE-S3, SSE-KMS) are saved, but the embedded storage does not encrypt objects yet and does not check KMS key IDs.",
} as const;

export type EmbeddedLimit = keyof typeof EMBEDDED_LIMITS;

/** The texts of the given limits, or none when the storage is not the embedded one (for LimitsNotice). */
export const embeddedLimits = (embedded: boolean | undefined, ...features: EmbeddedLimit[]): string[] => (embedded ? features.map((f) => EMBEDDED_LIMITS[f]) : []);
