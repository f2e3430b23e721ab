/**
 * Go-style durations ("12h", "1h30m", "90s", "604800000ms"), as MinIO and MinIO Console settings and
 * parameters spell them. Shared by configuration and by API inputs such as share-link expiry.
 */
const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** Parses a duration into seconds; null when the text is not a duration. A bare number means seconds. */
export function parseDuration(text: string): number | null {
  const value = text.trim();
  if (/^\d+$/.test(value)) return Number(value);
  return sumOfParts(value, /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y, UNIT_SECONDS);
}

/**
 * Adds up a text made only of `<number><unit>` parts ("1h30m"), each matched by the sticky `part` pattern
 * (number, unit) and weighed by `units`; null when anything else is in the text or it is empty.
 */
function sumOfParts(value: string, part: RegExp, units: Record<string, number>): number | null {
  let total = 0;
  let index = 0;
  while (index < value.length) {
    part.lastIndex = index;
    const match = part.exec(value);
    if (!match) return null;
    total += Number(match[1]) * units[match[2]];
    index = part.lastIndex;
  }
  return index > 0 ? total : null;
}

const GO_UNIT_NS: Record<string, number> = {
  ns: 1,
  us: 1e3,
  "µs": 1e3,
  "μs": 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Parses Go's time.ParseDuration syntax ("1h0m0s", "100ms", "1.5s", "0") into nanoseconds; null when invalid. */
export function parseGoDuration(text: string): number | null {
  let value = text.trim();
  let sign = 1;
  if (value.startsWith("-") || value.startsWith("+")) {
    sign = value[0] === "-" ? -1 : 1;
    value = value.slice(1);
  }
  if (value === "0") return 0;
  const total = sumOfParts(value, /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y, GO_UNIT_NS);
  return total === null ? null : sign * Math.round(total);
}

/** Nanoseconds as Go's Duration.String() prints them: "1.534ms", "2m3.5s", "1h0m0s", "0s". */
export function formatGoDuration(ns: number): string {
  const total = Math.round(Math.abs(ns));
  const sign = ns < 0 ? "-" : "";
  if (total === 0) return "0s";
  const fraction = (value: number, digits: number) => {
    const whole = Math.floor(value / 10 ** digits);
    const rest = String(value % 10 ** digits).padStart(digits, "0").replace(/0+$/, "");
    return rest ? `${whole}.${rest}` : String(whole);
  };
  if (total < 1e3) return `${sign}${total}ns`;
  if (total < 1e6) return `${sign}${fraction(total, 3)}µs`;
  if (total < 1e9) return `${sign}${fraction(total, 6)}ms`;
  const hours = Math.floor(total / 3600e9);
  const minutes = Math.floor((total % 3600e9) / 60e9);
  const seconds = fraction(total % 60e9, 9);
  return `${sign}${hours ? `${hours}h` : ""}${hours || minutes ? `${minutes}m` : ""}${seconds}s`;
}
