/**
 * Display rules from the spec, shared by server-rendered pages and islands: binary sizes (factor 1024),
 * thousands separators, durations (spec 1 §9) and the server capacity calculation (spec 1 §5).
 */

const UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"];
export const GIB = 1073741824;
export const MAX_DISK_BYTES = 274877906944;
export const MIN_DISKS_PER_NODE = 4;

/** 1536 → "1.5 KiB"; one decimal, trailing ".0" dropped. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return "0 B";
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = unit === 0 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, "");
  return `${shown} ${UNITS[unit]}`;
}

/** PRIVATE → "Private", fifo → "Fifo": one word capitalised, as spec 2 shows access levels, quota types and modes. */
export const capitalizeWord = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/** 1234567 → "1,234,567". */
export function formatNumber(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** Durations: years over 365 days, months and days over 30, weeks 7–30, days 1–6, else the largest of h/m/s. */
export function formatDuration(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const days = Math.floor(total / 86400);
  if (days > 365) return plural(Math.floor(days / 365), "year");
  if (days > 30) {
    const months = Math.floor(days / 30);
    const rest = days - months * 30;
    return rest > 0 ? `${plural(months, "month")} ${plural(rest, "day")}` : plural(months, "month");
  }
  if (days >= 7) return plural(Math.floor(days / 7), "week");
  if (days >= 1) return plural(days, "day");
  const hours = Math.floor(total / 3600);
  if (hours >= 1) return plural(hours, "hour");
  const minutes = Math.floor(total / 60);
  if (minutes >= 1) return plural(minutes, "minute");
  return plural(total, "second");
}

export interface CapacityPlan {
  disksPerNode: number;
  diskSize: number;
  totalDisks: number;
  error: "";
}

export type CapacityResult = CapacityPlan | { error: string };

/**
 * Spreads a total capacity over nodes: at least 4 disks per node, disks at most 256 GiB (274877906944
 * bytes), disks per node rounded up, each disk at least 1 GiB.
 */
export function calculateCapacity(nodes: unknown, totalCapacity: unknown): CapacityResult {
  const n = Number(nodes);
  const capacity = Number(totalCapacity);
  if (
    nodes === "" || totalCapacity === "" || !Number.isFinite(n) || !Number.isFinite(capacity) ||
    !Number.isInteger(n)
  ) {
    return { error: "Some provided data is invalid, please try again." };
  }
  if (n < 1 || capacity <= 0) return { error: "We were not able to allocate this server." };
  const perNode = capacity / n;
  const disksPerNode = Math.max(MIN_DISKS_PER_NODE, Math.ceil(perNode / MAX_DISK_BYTES));
  const diskSize = Math.floor(perNode / disksPerNode);
  if (diskSize > MAX_DISK_BYTES) return { error: "We were not able to allocate this server." };
  if (diskSize < GIB) {
    return {
      error: "Disk Size with this combination would be less than 1Gi, please try another combination",
    };
  }
  return { disksPerNode, diskSize, totalDisks: disksPerNode * n, error: "" };
}

/** Size units the quota and bandwidth fields offer (factor 1024, spec 2 §9). */
export const SIZE_UNITS = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"] as const;
export type SizeUnit = typeof SIZE_UNITS[number];

export const toBytes = (amount: number, unit: SizeUnit) =>
  Math.round(amount * 1024 ** SIZE_UNITS.indexOf(unit));

/** A byte count in the largest unit that divides it exactly (spec 2 §4, quota dialog): 2 TiB, 1536 MiB. */
export function largestExactUnit(bytes: number): { amount: number; unit: SizeUnit } {
  for (let i = SIZE_UNITS.length - 1; i > 0; i--) {
    const factor = 1024 ** i;
    if (bytes > 0 && bytes % factor === 0) return { amount: bytes / factor, unit: SIZE_UNITS[i] };
  }
  return { amount: bytes, unit: "B" };
}

const GO_TIME = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?) ([+-]\d\d)(\d\d)(?: \S+)?$/;

/**
 * Every instant the console shows, in one format: `2026-03-07 14:05:09 UTC` (ISO 8601 order, to the second,
 * in UTC). UTC because storage servers, their logs and S3 itself keep time in UTC, and because a page
 * rendered on the server must read the same once the browser takes it over, whatever either one's time
 * zone. Takes an ISO text (or Go's time.String() form, "2022-08-05 18:49:03 +0000 UTC", which some
 * operator answers carry), epoch milliseconds or a Date; "" when absent, and text it cannot read as is.
 */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === "") return "";
  const date = value instanceof Date
    ? value
    : new Date(typeof value === "string" ? value.replace(GO_TIME, "$1T$2$3:$4") : value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** A day in the same format: `2026-03-07` (licence expiry, lifecycle dates). */
export function formatDate(value: string | number | Date | null | undefined): string {
  const shown = formatDateTime(value);
  return shown.endsWith(" UTC") ? shown.slice(0, 10) : shown;
}

/**
 * A `datetime-local` field's text read as UTC (the pickers say so, as every time shown is UTC), in epoch
 * milliseconds; null when empty or not a time.
 */
export function utcFieldTime(text: string): number | null {
  const ms = text ? Date.parse(`${text}Z`) : NaN;
  return Number.isNaN(ms) ? null : ms;
}

/** The time of day in the same format, `14:05` (chart axes, where the day is the range's). */
export const formatTimeOfDay = (value: string | number | Date) => formatDateTime(value).slice(11, 16);
