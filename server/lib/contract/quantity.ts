/**
 * Kubernetes resource quantities (operator-k8s.md §6.4): "25Gi", "500m", "1e3", "107374182400". Parsed to a
 * number rounded up (bytes for storage and memory, as the console reads them) and written back in the
 * canonical form: the largest suffix of the same family that represents the value exactly.
 */

const BINARY: [string, number][] = [["Ei", 2 ** 60], ["Pi", 2 ** 50], ["Ti", 2 ** 40], ["Gi", 2 ** 30], [
  "Mi",
  2 ** 20,
], ["Ki", 2 ** 10]];
const DECIMAL: [string, number][] = [["E", 1e18], ["P", 1e15], ["T", 1e12], ["G", 1e9], ["M", 1e6], [
  "k",
  1e3,
]];
const SMALL: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3 };

const QUANTITY = /^([+-]?(?:\d+\.?\d*|\.\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

/** Parses a quantity to its value rounded up to an integer; null when malformed. */
export function parseQuantity(value: string | number | undefined | null): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? Math.ceil(value) : null;
  if (typeof value !== "string") return null;
  const match = QUANTITY.exec(value.trim());
  if (!match) return null;
  const number = Number(match[1]);
  const suffix = match[2] ?? "";
  let factor = 1;
  if (/^[eE]/.test(suffix)) factor = 10 ** Number(suffix.slice(1));
  else if (suffix) {
    factor = BINARY.find(([s]) => s === suffix)?.[1] ?? DECIMAL.find(([s]) => s === suffix)?.[1] ??
      SMALL[suffix];
  }
  return Math.ceil(number * factor);
}

function largestExact(value: number, table: [string, number][]): string {
  if (value === 0) return "0";
  for (const [suffix, factor] of table) if (value % factor === 0) return `${value / factor}${suffix}`;
  return String(value);
}

/** Binary form when exact ("2Gi" for 2147483648), else a plain integer: how memory is written. */
export const binaryQuantity = (value: number) => largestExact(value, BINARY);

/** Decimal form when exact ("5G"), else a plain integer ("107374182400" for 100 GiB): how storage sizes are written. */
export const decimalQuantity = (value: number) => largestExact(value, DECIMAL);

/** Re-writes a quantity canonically in its own family ("1024Mi" → "1Gi"); "0" when absent or malformed. */
export function canonicalQuantity(value: string | undefined): string {
  const bytes = parseQuantity(value);
  if (bytes === null) return "0";
  return /i$/.test(value!.trim()) ? binaryQuantity(bytes) : decimalQuantity(bytes);
}
