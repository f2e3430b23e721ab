/**
 * Display rules from the spec, shared by server-rendered pages and islands: binary sizes (factor 1024),
 * thousands separators, durations (spec 1 §9) and the server capacity calculation (spec 1 §5).
 *
 * Each follows the language in force (currentLocale()): German writes 1.234.567, 1,5 KiB, 2 Tage and
 * 07.03.2026, 14:05:09 UTC; Chinese 1,234,567, 1.5 KiB, 2 天 and 2026/03/07 14:05:09 UTC. English is written by
 * the rules below as it always was (also where no catalogue is loaded, as in unit tests), byte for byte.
 */
import { currentLocale, type MessageKey, t } from "./i18n/t.ts";

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
  const locale = currentLocale();
  // The same digits, with the language's decimal separator (1,5 KiB); never grouped (1023 KiB, as in English).
  const written = locale === "en"
    ? shown
    : Number(shown).toLocaleString(locale, { maximumFractionDigits: 1, useGrouping: false });
  return `${written} ${UNITS[unit]}`;
}

/** PRIVATE → "Private", fifo → "Fifo": one word capitalised, as spec 2 shows access levels, quota types and modes. */
export const capitalizeWord = (word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();

/** 1234567 → "1,234,567" (German "1.234.567"). */
export function formatNumber(value: number): string {
  const locale = currentLocale();
  return Math.round(value).toLocaleString(locale === "en" ? "en-US" : locale);
}

type DurationUnit = "year" | "month" | "week" | "day" | "hour" | "minute" | "second";

const DURATION_KEYS: Record<DurationUnit, MessageKey> = {
  year: "common.duration.year",
  month: "common.duration.month",
  week: "common.duration.week",
  day: "common.duration.day",
  hour: "common.duration.hour",
  minute: "common.duration.minute",
  second: "common.duration.second",
};

/** "2 days": English by rule, other languages from the catalogue's plural forms (the count never grouped). */
const plural = (n: number, unit: DurationUnit) =>
  currentLocale() === "en"
    ? `${n} ${unit}${n === 1 ? "" : "s"}`
    : t(DURATION_KEYS[unit], { count: String(n) });

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

/** The spec's English sentence (also where no catalogue is loaded), else the catalogue's text. */
const inLanguage = (english: string, key: MessageKey) => (currentLocale() === "en" ? english : t(key));

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
    return {
      error: inLanguage("Some provided data is invalid, please try again.", "common.capacity.invalid"),
    };
  }
  if (n < 1 || capacity <= 0) {
    return { error: inLanguage("We were not able to allocate this server.", "common.capacity.notAllocated") };
  }
  const perNode = capacity / n;
  const disksPerNode = Math.max(MIN_DISKS_PER_NODE, Math.ceil(perNode / MAX_DISK_BYTES));
  const diskSize = Math.floor(perNode / disksPerNode);
  if (diskSize > MAX_DISK_BYTES) {
    return { error: inLanguage("We were not able to allocate this server.", "common.capacity.notAllocated") };
  }
  if (diskSize < GIB) {
    return {
      error: inLanguage(
        "Disk Size with this combination would be less than 1Gi, please try another combination",
        "common.capacity.diskTooSmall",
      ),
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

/** The instant a value names, or null when absent; text it cannot read as a time is returned as it is. */
function toInstant(value: string | number | Date | null | undefined): Date | string | null {
  if (value === null || value === undefined || value === "") return null;
  const date = value instanceof Date
    ? value
    : new Date(typeof value === "string" ? value.replace(GO_TIME, "$1T$2$3:$4") : value);
  return Number.isNaN(date.getTime()) ? String(value) : date;
}

const DAY = { year: "numeric", month: "2-digit", day: "2-digit" } as const;
const TIME = { hour: "2-digit", minute: "2-digit", hourCycle: "h23" } as const;
const formats = new Map<string, Intl.DateTimeFormat>();

/** The language's own way to write a day and/or a time, in UTC (German 07.03.2026, 14:05:09). */
function inLocale(date: Date, what: "dateTime" | "date" | "time" | "dayAndTime"): string {
  const locale = currentLocale();
  let format = formats.get(`${locale} ${what}`);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = what === "dateTime"
      ? { ...DAY, ...TIME, second: "2-digit" }
      : what === "date"
      ? DAY
      : what === "time"
      ? TIME
      : { month: "2-digit", day: "2-digit", ...TIME };
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    formats.set(`${locale} ${what}`, format);
  }
  return format.format(date);
}

/**
 * Every instant the console shows, in one format: `2026-03-07 14:05:09 UTC` (ISO 8601 order, to the second,
 * in UTC; German `07.03.2026, 14:05:09 UTC`, Chinese `2026/03/07 14:05:09 UTC`). UTC because storage servers,
 * their logs and S3 itself keep time in UTC, and because a page rendered on the server must read the same once
 * the browser takes it over, whatever either one's time zone. Takes an ISO text (or Go's time.String() form,
 * "2022-08-05 18:49:03 +0000 UTC", which some operator answers carry), epoch milliseconds or a Date; "" when
 * absent, and text it cannot read as is.
 *
 * `dayAndTime` cuts it short for chart axes: `03-07 14:05` (German `07.03., 14:05`).
 */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  form: "full" | "dayAndTime" = "full",
): string {
  const date = toInstant(value);
  if (date === null) return "";
  if (typeof date === "string") return date;
  if (currentLocale() !== "en") {
    return form === "full" ? `${inLocale(date, "dateTime")} UTC` : inLocale(date, "dayAndTime");
  }
  const iso = date.toISOString().slice(0, 19).replace("T", " ");
  return form === "full" ? `${iso} UTC` : iso.slice(5, 16);
}

/** A day in the same format: `2026-03-07` (licence expiry, lifecycle dates). */
export function formatDate(value: string | number | Date | null | undefined): string {
  const date = toInstant(value);
  if (date === null) return "";
  if (typeof date === "string") return date;
  return currentLocale() === "en" ? date.toISOString().slice(0, 10) : inLocale(date, "date");
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
export function formatTimeOfDay(value: string | number | Date): string {
  const date = toInstant(value);
  if (date === null) return "";
  if (typeof date === "string") return date.slice(11, 16);
  return currentLocale() === "en" ? date.toISOString().slice(11, 16) : inLocale(date, "time");
}
