/**
 * Go-style durations ("12h", "1h30m", "90s", "604800000ms"), as MinIO and MinIO Console settings and
 * parameters spell them. Shared by configuration and by API inputs such as share-link expiry.
 */
const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** Parses a duration into seconds; null when the text is not a duration. A bare number means seconds. */
export function parseDuration(text: string): number | null {
  const value = text.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const part = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;
  let total = 0;
  let index = 0;
  while (index < value.length) {
    part.lastIndex = index;
    const match = part.exec(value);
    if (!match) return null;
    total += Number(match[1]) * UNIT_SECONDS[match[2]];
    index = part.lastIndex;
  }
  return index > 0 ? total : null;
}
