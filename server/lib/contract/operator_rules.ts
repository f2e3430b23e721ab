/**
 * The operator wizard's rules and sizing algorithms (spec 3 §4, §5, §9; operator-k8s.md §5), pure and shared:
 * the islands run them as the user types and the server runs them again on the request.
 */

export const GI = 2 ** 30;
export const TI = 2 ** 40;
export const PI = 2 ** 50;
export const MIN_SERVERS = 4;
export const MIN_MEMORY_GI = 2;
/** A quota-less storage class gets the int64 maximum as its hard limit (operator-k8s.md §3.12). */
export const NO_QUOTA = 9223372036854775807;

export const TENANT_NAME_MESSAGE = "Name only can contain lowercase letters, numbers and '-'. Min. Length: 3";
export const KEYS_MESSAGE = "Keys must be at least length 8";
/**
 * The sizing rules' messages as the spec words them (English); the wizard shows each in the person's language
 * under the catalogue key of the same name, "wizard.rule.<name>" (islands/tenant_wizard/rules.ts).
 */
export const RULE_MESSAGES = {
  poolTooSmall: "The pool size must be greater than 1Gi",
  drivesMin: "Number of drives must be at least 1",
  invalidData: "Some provided data is invalid, please try again.",
  diskTooSmall: "Disk Size with this combination would be less than 1Gi, please try another combination",
  noMemory: "There is no memory available for the selected number of nodes",
  notEnoughMemory: "There are not enough memory resources available",
  memoryTooSmall: "The requested memory size must be greater than 2Gi",
  memoryTooLarge:
    "The requested memory is greater than the max available memory for the selected number of nodes",
} as const;
export type RuleMessage = keyof typeof RULE_MESSAGES;

export const isTenantName = (name: string) => /^[a-z0-9-]{3,63}$/.test(name);
export const isNamespaceName = (name: string) =>
  name.length <= 63 && /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name);
export const isAccessKey = (key: string) => /^[a-zA-Z0-9-]{8,63}$/.test(key);
/** registry/name:tag, as the original's image pattern `^((.*?)/(.*?):(.+))$`. */
export const isImage = (image: string) => /^((.*?)\/(.*?):(.+))$/.test(image);

/** Units of the size field (powers of 1024, as the original's k8s unit table). */
export const SIZE_UNITS = ["Ki", "Mi", "Gi", "Ti", "Pi", "Ei"] as const;
export type SizeUnit = typeof SIZE_UNITS[number];
export const unitBytes = (unit: SizeUnit) => 2 ** (10 * (SIZE_UNITS.indexOf(unit) + 1));

/** Binary-unit text such as "1.5 TiB" for messages and summaries. */
export function niceBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
  let value = bytes;
  let i = 0;
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[i]}`;
}

/** Why a layout has no parity: `kind` and `params` let the server word it in the person's language. */
export class ParityError extends Error {
  constructor(
    message: string,
    readonly kind: "invalidEndpoints" | "tooFewEndpoints" | "notDivisible" | "notSymmetric",
    readonly params: { pattern: string; total?: string; sizes?: string },
  ) {
    super(message);
  }
}

/**
 * Erasure-code parity choices for N servers with D drives each (operator-k8s.md §5.1, a port of MinIO's
 * ellipses set-size logic): the largest set size in 4..16 that divides N×D and suits N symmetrically, then
 * EC:max down to EC:2.
 */
export function parityOptions(nodes: number, drivesPerNode: number): string[] {
  const pattern = `[http://minio{1...${nodes}}/export/set{1...${drivesPerNode}}]`;
  if (!Number.isInteger(nodes) || !Number.isInteger(drivesPerNode) || drivesPerNode < 1 || nodes < 1) {
    throw new ParityError(`invalid number of endpoints provided ${pattern}`, "invalidEndpoints", { pattern });
  }
  const total = nodes * drivesPerNode;
  if (total < 4) {
    throw new ParityError(`incorrect number of endpoints provided ${pattern}`, "tooFewEndpoints", {
      pattern,
    });
  }
  const sizes = Array.from({ length: 13 }, (_, i) => i + 4);
  const params = { pattern, total: String(total), sizes: sizes.join(" ") };
  const divisible = sizes.filter((size) => total % size === 0);
  if (divisible.length === 0) {
    throw new ParityError(
      `incorrect number of endpoints provided ${pattern}, number of disks ${total} is not divisible by any supported erasure set sizes [${
        sizes.join(" ")
      }]`,
      "notDivisible",
      params,
    );
  }
  const symmetric = divisible.filter((size) =>
    (nodes > size && nodes % size === 0) || (nodes <= size && size % nodes === 0)
  );
  if (symmetric.length === 0) {
    throw new ParityError(
      `no symmetric distribution detected with input endpoints provided ${pattern}, disks ${total} cannot be spread symmetrically by any supported erasure set sizes [${
        sizes.join(" ")
      }]`,
      "notSymmetric",
      params,
    );
  }
  const maxParity = Math.floor(Math.max(...symmetric) / 2);
  const out: string[] = [];
  for (let p = maxParity; p >= 2; p--) out.push(`EC:${p}`);
  return out;
}

export const parityOf = (ec: string) => Number(/^EC:(\d+)$/.exec(ec)?.[1] ?? NaN);

export interface StorageFactor {
  erasureCode: string;
  storageFactor: number;
  maxCapacity: number;
  maxFailureTolerations: number;
}

export interface ErasureCalculation {
  error: boolean;
  defaultEC: string;
  rawCapacity: number;
  storageFactors: StorageFactor[];
}

/** Usable capacity and failure tolerance per parity choice (spec 3 §4; original `erasureCodeCalc`). */
export function erasureCodeCalc(
  options: string[],
  totalVolumes: number,
  pvSize: number,
  nodes: number,
): ErasureCalculation {
  const rawCapacity = totalVolumes * pvSize;
  if (options.length === 0) return { error: true, defaultEC: "", rawCapacity, storageFactors: [] };
  const setSize = 2 * parityOf(options[0]);
  const storageFactors = options.map((erasureCode) => {
    const storageFactor = setSize / (setSize - parityOf(erasureCode));
    return {
      erasureCode,
      storageFactor,
      maxCapacity: Math.floor(rawCapacity / storageFactor),
      maxFailureTolerations: totalVolumes - Math.floor(totalVolumes / storageFactor),
    };
  });
  const defaultEC = totalVolumes >= 8 && nodes > 16 && options.includes("EC:4") ? "EC:4" : options[0];
  return { error: false, defaultEC, rawCapacity, storageFactors };
}

export interface Distribution {
  error: string;
  nodes: number;
  persistentVolumes: number;
  disks: number;
  pvSize: number;
}

/** Splits the total size over servers and drives (spec 3 §5; original `calculateDistribution`). */
export function calculateDistribution(
  totalBytes: number,
  nodes: number,
  drivesPerServer: number,
): Distribution {
  const empty = { nodes: 0, persistentVolumes: 0, disks: 0, pvSize: 0 };
  if (!Number.isFinite(totalBytes) || totalBytes < GI) {
    return { error: RULE_MESSAGES.poolTooSmall, ...empty };
  }
  if (!Number.isFinite(drivesPerServer) || drivesPerServer <= 0) {
    return { error: RULE_MESSAGES.drivesMin, ...empty };
  }
  if (!Number.isFinite(nodes) || nodes <= 0) {
    return { error: RULE_MESSAGES.invalidData, ...empty };
  }
  const persistentVolumes = nodes * drivesPerServer;
  const pvSize = Math.floor(totalBytes / persistentVolumes);
  if (pvSize < GI) {
    return { error: RULE_MESSAGES.diskTooSmall, ...empty };
  }
  return { error: "", nodes, persistentVolumes, disks: drivesPerServer, pvSize };
}

export interface MemoryResources {
  error: string;
  request: number;
  limit: number;
}

/**
 * Memory request and limit per server (spec 3 §4, §5). The limit follows the spec's table by total size;
 * the original's unit mix-up made it always max(request, 32Gi) (operator-k8s.md §5.4), which we do not copy.
 */
export function memoryResources(
  memoryGi: number,
  totalBytes: number,
  maxAllocatable: number,
): MemoryResources {
  const request = memoryGi * GI;
  const fail = (error: string) => ({ error, request: 0, limit: 0 });
  if (maxAllocatable === 0) return fail(RULE_MESSAGES.noMemory);
  if (maxAllocatable < MIN_MEMORY_GI * GI) return fail(RULE_MESSAGES.notEnoughMemory);
  if (!Number.isFinite(request) || request < MIN_MEMORY_GI * GI) return fail(RULE_MESSAGES.memoryTooSmall);
  if (request > maxAllocatable) return fail(RULE_MESSAGES.memoryTooLarge);
  const floor = totalBytes >= PI
    ? 64 * GI
    : totalBytes >= 100 * TI
    ? 32 * GI
    : totalBytes >= 10 * TI
    ? 16 * GI
    : totalBytes >= TI
    ? 8 * GI
    : 0;
  return { error: "", request, limit: Math.max(request, floor) };
}

export const QUOTA_SUFFIX = ".storageclass.storage.k8s.io/requests.storage";

/** Storage classes and their remaining quota from a namespace's storage quota elements (operator-k8s.md §5.3). */
export function storageClassesFromQuota(
  elements: { name: string; hard?: number; used?: number }[],
): { name: string; remaining: number }[] {
  return elements.map((e) => ({
    name: e.name.endsWith(QUOTA_SUFFIX) ? e.name.slice(0, -QUOTA_SUFFIX.length) : e.name,
    remaining: (e.hard ?? 0) - (e.used ?? 0),
  }));
}

/** Whether a total size fits: above 1Gi and within the storage class's remaining quota. */
export const totalSizeFits = (totalBytes: number, remaining: number) =>
  Number.isFinite(totalBytes) && totalBytes > GI && totalBytes <= remaining;

/** The quota a size must stay under, or null for a storage class without one ("the storage class limit"). */
export const quotaLimit = (remaining: number): number | null => remaining >= NO_QUOTA / 2 ? null : remaining;

/** The size page's check: 'Volume size must be greater than 1Gi and less than {limit}'. */
export function totalSizeError(totalBytes: number, remaining: number): string {
  if (!totalSizeFits(totalBytes, remaining)) {
    const limit = quotaLimit(remaining);
    return `Volume size must be greater than 1Gi and less than ${
      limit === null ? "the storage class limit" : niceBytes(limit)
    }`;
  }
  return "";
}

export interface LabelRow {
  key: string;
  value: string;
}

/** Label rows joined as key=value separated by &, deduplicated, empty keys dropped (spec 3 §2.3). */
export function joinLabels(rows: LabelRow[]): string {
  const seen = new Set<string>();
  for (const row of rows) if (row.key.trim()) seen.add(`${row.key.trim()}=${row.value.trim()}`);
  return [...seen].join("&");
}

/** Parses "k1=v1&k2=v2"; parts without exactly one "=" or with an empty side are dropped. */
export function parseLabels(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text.split("&")) {
    const pieces = part.split("=");
    if (pieces.length === 2 && pieces[0].trim() && pieces[1].trim()) out[pieces[0].trim()] = pieces[1].trim();
  }
  return out;
}

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random key of letters and digits (Randomize: 16 for access keys, 32 for secret keys). */
export function randomKey(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
  let out = "";
  for (const byte of bytes) {
    if (byte >= 248) continue; // 248 = 4 × 62: keep the choice uniform
    out += ALPHANUMERIC[byte % 62];
    if (out.length === length) return out;
  }
  return out + randomKey(length - out.length);
}

/** Default anti-affinity: one MinIO pod of a pool per host (operator-k8s.md §5.6). */
export function defaultAffinity(tenant: string, pool: string): Record<string, unknown> {
  return {
    podAntiAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: [{
        labelSelector: {
          matchExpressions: [
            { key: "v1.min.io/tenant", operator: "In", values: [tenant] },
            { key: "v1.min.io/pool", operator: "In", values: [pool] },
          ],
        },
        topologyKey: "kubernetes.io/hostname",
      }],
    },
  };
}

/** Node-selector affinity from "k=v&..." plus, optionally, the default anti-affinity. */
export function nodeSelectorAffinity(
  tenant: string,
  pool: string,
  labels: string,
  withAntiAffinity: boolean,
): Record<string, unknown> {
  const expressions = Object.entries(parseLabels(labels)).map(([key, value]) => ({
    key,
    operator: "In",
    values: [value],
  }));
  return {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchExpressions: expressions }],
      },
    },
    ...(withAntiAffinity ? defaultAffinity(tenant, pool) : {}),
  };
}

export const CERT_EXTENSIONS = [".cer", ".crt", ".cert", ".pem"];
export const KEY_EXTENSIONS = [".key", ".pem"];
