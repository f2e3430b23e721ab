/** Each wizard page's validity (spec 3 §5), and the size page's computed distribution, capacity and memory. */
import {
  calculateDistribution,
  type Distribution,
  type ErasureCalculation,
  erasureCodeCalc,
  isAccessKey,
  isImage,
  isTenantName,
  memoryResources,
  MIN_SERVERS,
  niceBytes,
  quotaLimit,
  RULE_MESSAGES,
  type RuleMessage,
  totalSizeFits,
  unitBytes,
} from "../../server/lib/contract/operator_rules.ts";
import { currentLocale, type MessageKey, t } from "../lib/i18n/t.ts";
import { completePairs, hasHalfPair, type WizardState } from "./state.ts";

/** A size as niceBytes writes it ("1.5 TiB"), its number written the language's way ("1,5 TiB" in German). */
export function sizeText(bytes: number): string {
  const [number, unit] = niceBytes(bytes).split(" ");
  const digits = number.includes(".") ? 1 : 0;
  const formatted = Number(number).toLocaleString(currentLocale(), {
    useGrouping: false,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return `${formatted} ${unit}`;
}

/** A sizing rule's message (English in the shared rules) in the person's language; other texts as they are. */
export function ruleText(message: string): string {
  const name = (Object.keys(RULE_MESSAGES) as RuleMessage[]).find((n) => RULE_MESSAGES[n] === message);
  return name ? t(`wizard.rule.${name}` as MessageKey) : message;
}

/** Errors of the Name Tenant page, by field. */
export function nameErrors(s: WizardState): Record<string, string> {
  const errors: Record<string, string> = {};
  if (s.name.tenantName && !isTenantName(s.name.tenantName)) errors.tenantName = t("wizard.name.invalidName");
  if (s.namespaceCheck.status === "error") errors.namespace = s.namespaceCheck.error;
  return errors;
}

export function nameValid(s: WizardState): boolean {
  return isTenantName(s.name.tenantName) && !!s.name.namespace && s.namespaceCheck.status === "ok" &&
    s.namespaceCheck.classes.length > 0 && !!s.name.storageClass;
}

const IMAGE_FIELDS = [
  ["logSearchImage", "minio/logsearchapi"],
  ["kesImage", "minio/kes"],
  ["postgresImage", "library/postgres"],
  ["postgresInitImage", "library/busybox"],
  ["prometheusImage", "minio/prometheus"],
  ["prometheusSidecarImage", "project/container"],
  ["prometheusInitImage", "library/busybox"],
] as const;
export { IMAGE_FIELDS };

export function configureErrors(s: WizardState): Record<string, string> {
  const c = s.configure;
  const errors: Record<string, string> = {};
  if (c.customImage && (!c.imageName || !isImage(c.imageName))) {
    errors.imageName = t("wizard.rule.imageFormat", { example: "minio/minio" });
  }
  if (c.customImage) {
    for (const [field, example] of IMAGE_FIELDS) {
      if (c[field] && !isImage(c[field])) errors[field] = t("wizard.rule.imageFormat", { example });
    }
  }
  if (c.customRegistry) {
    for (const field of ["registry", "registryUsername", "registryPassword"] as const) {
      if (!c[field].trim()) errors[field] = t("wizard.rule.required");
    }
  }
  for (
    const [custom, cls, size] of [["logSearchCustom", "logSearchClass", "logSearchSize"], [
      "prometheusCustom",
      "prometheusClass",
      "prometheusSize",
    ]] as const
  ) {
    if (!c[custom]) continue;
    if (!c[cls]) errors[cls] = t("wizard.rule.required");
    if (!(Number(c[size]) > 0)) errors[size] = t("wizard.rule.volumeSizePositive");
  }
  return errors;
}

export function affinityErrors(s: WizardState): Record<string, string> {
  if (s.affinity.kind !== "nodeSelector") return {};
  const complete = s.affinity.labels.filter((l) => l.key.trim() && l.value.trim());
  if (complete.length === 0 || s.affinity.labels.some((l) => !l.key.trim() || !l.value.trim())) {
    return { labels: t("wizard.rule.labelPair") };
  }
  return {};
}

export function idpErrors(s: WizardState): Record<string, string> {
  const errors: Record<string, string> = {};
  if (s.idp.kind === "builtin") {
    if (s.idp.keys.length === 0) errors.keys = t("wizard.rule.keyPairRequired");
    s.idp.keys.forEach((k, i) => {
      if (!isAccessKey(k.accessKey)) errors[`accessKey${i}`] = t("wizard.rule.keyLength");
      if (!isAccessKey(k.secretKey)) errors[`secretKey${i}`] = t("wizard.rule.keyLength");
    });
  } else if (s.idp.kind === "openid") {
    for (const field of ["url", "configurationUrl", "clientId", "secretId", "claimName"] as const) {
      if (!s.idp.openid[field].trim()) errors[field] = t("wizard.rule.required");
    }
  } else {
    if (!s.idp.ad.url.trim()) errors.adUrl = t("wizard.rule.required");
    s.idp.ad.userDns.forEach((dn, i) => {
      if (!dn.trim()) errors[`userDn${i}`] = t("wizard.rule.required");
    });
  }
  return errors;
}

export function securityValid(s: WizardState): boolean {
  const sec = s.security;
  if (!sec.enableTLS) return true;
  if (sec.autoCert) return true;
  return sec.customCerts && completePairs(sec.minioCerts).length > 0 && !hasHalfPair(sec.minioCerts);
}

export function encryptionErrors(s: WizardState): Record<string, string> {
  const e = s.encryption;
  const errors: Record<string, string> = {};
  if (!e.enabled) return errors;
  const need = (field: string, value: string) => {
    if (!value.trim()) errors[field] = t("wizard.rule.required");
  };
  const nonNegative = (field: string, value: string) => {
    if (!(Number(value) >= 0) || value.trim() === "") errors[field] = t("wizard.rule.nonNegative");
  };
  if (e.customCerts && !s.security.autoCert) {
    for (
      const [side, part] of [["server", "key"], ["server", "cert"], ["client", "key"], [
        "client",
        "cert",
      ]] as const
    ) if (!e[side][part].value) errors[`${side}.${part}`] = t("wizard.rule.required");
  }
  if (e.kind === "vault") {
    need("vault.endpoint", e.vault.endpoint);
    need("vault.approleId", e.vault.approleId);
    need("vault.approleSecret", e.vault.approleSecret);
    nonNegative("vault.retry", e.vault.retry);
    nonNegative("vault.ping", e.vault.ping);
  } else if (e.kind === "aws") {
    need("aws.endpoint", e.aws.endpoint);
    need("aws.region", e.aws.region);
    need("aws.accessKey", e.aws.accessKey);
    need("aws.secretKey", e.aws.secretKey);
  } else if (e.kind === "gemalto") {
    need("gemalto.endpoint", e.gemalto.endpoint);
    need("gemalto.token", e.gemalto.token);
    need("gemalto.domain", e.gemalto.domain);
    nonNegative("gemalto.retry", e.gemalto.retry);
  } else need("gcp.projectId", e.gcp.projectId);
  return errors;
}

/** What the size page computes from its fields and the server's answers. */
export interface SizeFacts {
  maxMemory: number | null;
  memoryLookupError: string;
  parityChoices: string[];
  parityError: string;
}

export interface SizeComputation {
  errors: Record<string, string>;
  distribution: Distribution;
  ec: ErasureCalculation;
  memory: { error: string; request: number; limit: number };
  totalBytes: number;
  valid: boolean;
}

export function computeSize(s: WizardState, facts: SizeFacts): SizeComputation {
  const size = s.size;
  const nodes = Number(size.nodes);
  const drives = Number(size.drivesPerServer);
  const totalBytes = Number(size.volumeSize) * unitBytes(size.sizeFactor);
  const errors: Record<string, string> = {};
  if (!size.nodes.trim() || !Number.isInteger(nodes) || nodes < MIN_SERVERS) {
    errors.nodes = t("wizard.rule.minServers", { min: MIN_SERVERS });
  } else if (facts.memoryLookupError) errors.nodes = facts.memoryLookupError;
  if (!size.drivesPerServer.trim() || !Number.isInteger(drives) || drives < 1) {
    errors.drivesPerServer = t("wizard.rule.minDrive");
  }
  const remaining = s.namespaceCheck.classes.find((c) => c.name === s.name.storageClass)?.remaining ?? 0;
  if (!size.volumeSize.trim()) errors.volumeSize = t("wizard.rule.required");
  else if (!totalSizeFits(totalBytes, remaining)) {
    const limit = quotaLimit(remaining);
    errors.volumeSize = t("wizard.rule.volumeSizeRange", {
      limit: limit === null ? t("wizard.rule.storageClassLimit") : sizeText(limit),
    });
  }
  const memoryGi = Number(size.memoryNode);
  if (s.advanced && (!size.memoryNode.trim() || !(memoryGi >= 2))) {
    errors.memoryNode = t("wizard.rule.memoryMin");
  }
  const computed = calculateDistribution(totalBytes, nodes, drives);
  const distribution = { ...computed, error: ruleText(computed.error) };
  const ec = erasureCodeCalc(
    facts.parityError ? [] : facts.parityChoices,
    distribution.persistentVolumes,
    distribution.pvSize,
    nodes,
  );
  const resources = facts.maxMemory === null
    ? { error: "", request: memoryGi * 2 ** 30, limit: 0 }
    : memoryResources(s.advanced ? memoryGi : 2, totalBytes, facts.maxMemory);
  const memory = { ...resources, error: ruleText(resources.error) };
  const valid = Object.keys(errors).length === 0 && !distribution.error && !ec.error && !facts.parityError &&
    facts.maxMemory !== null && !memory.error && !!size.ecParity;
  return { errors, distribution, ec, memory, totalBytes, valid };
}
