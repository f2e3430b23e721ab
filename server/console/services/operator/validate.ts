/**
 * The wizard's validations (spec 3 §5) run again on the server over the create request, so a hand-made call
 * cannot create what the wizard would refuse. Answers field → message with the spec's texts.
 */
import { t } from "../../../../islands/lib/i18n/t.ts";
import type { CreateTenantInput } from "../../../lib/contract/operator.ts";
import {
  GI,
  isAccessKey,
  isImage,
  isNamespaceName,
  isTenantName,
  MIN_MEMORY_GI,
  MIN_SERVERS,
  ParityError,
  parityOptions,
} from "../../../lib/contract/operator_rules.ts";

const isBase64 = (value: string) => {
  try {
    return value.length > 0 && Uint8Array.fromBase64(value).length > 0;
  } catch {
    return false;
  }
};

export function validateCreateTenant(input: CreateTenantInput): Record<string, string> {
  const fields: Record<string, string> = {};
  const need = (field: string, value: string | undefined, message = t("wizard.rule.required")) => {
    if (!value || !value.trim()) fields[field] = message;
  };
  if (!isTenantName(input.name)) fields.name = t("wizard.name.invalidName");
  if (!isNamespaceName(input.namespace)) fields.namespace = t("wizard.name.invalidNamespace");
  if (input.image && !isImage(input.image)) {
    fields.image = t("wizard.rule.imageFormat", { example: "minio/minio" });
  }
  if (input.image_registry) {
    need("image_registry.registry", input.image_registry.registry);
    need("image_registry.username", input.image_registry.username);
    need("image_registry.password", input.image_registry.password);
  }
  const images: [string, string | undefined, string][] = [
    ["logSearchConfiguration.image", input.logSearchConfiguration?.image, "minio/logsearchapi"],
    [
      "logSearchConfiguration.postgres_image",
      input.logSearchConfiguration?.postgres_image,
      "library/postgres",
    ],
    [
      "logSearchConfiguration.postgres_init_image",
      input.logSearchConfiguration?.postgres_init_image,
      "library/busybox",
    ],
    ["prometheusConfiguration.image", input.prometheusConfiguration?.image, "minio/prometheus"],
    [
      "prometheusConfiguration.sidecar_image",
      input.prometheusConfiguration?.sidecar_image,
      "project/container",
    ],
    ["prometheusConfiguration.init_image", input.prometheusConfiguration?.init_image, "library/busybox"],
    ["encryption.image", input.encryption?.image, "minio/kes"],
  ];
  for (const [field, value, example] of images) {
    if (value && !isImage(value)) fields[field] = t("wizard.rule.imageFormat", { example });
  }
  for (
    const [field, block] of [["logSearchConfiguration", input.logSearchConfiguration], [
      "prometheusConfiguration",
      input.prometheusConfiguration,
    ]] as const
  ) {
    if (block?.storageClass !== undefined || block?.storageSize !== undefined) {
      if (block.storageClass !== undefined && !block.storageClass.trim()) {
        fields[`${field}.storageClass`] = t("wizard.rule.required");
      }
      if (!(Number(block.storageSize) > 0)) {
        fields[`${field}.storageSize`] = t("wizard.rule.volumeSizePositive");
      }
    }
  }

  const pool = input.pools[0];
  if (pool.servers < MIN_SERVERS) {
    fields["pools.0.servers"] = t("wizard.server.minServers", { min: MIN_SERVERS });
  }
  if (pool.volumes_per_server < 1) fields["pools.0.volumes_per_server"] = t("wizard.rule.minDrive");
  if (pool.volume_configuration.size < GI) {
    fields["pools.0.volume_configuration.size"] = t("wizard.rule.diskTooSmall");
  }
  const memory = pool.resources?.requests?.memory;
  if (memory !== undefined && memory < MIN_MEMORY_GI * GI) {
    fields["pools.0.resources.requests.memory"] = t("wizard.rule.memoryMin");
  }
  const nodeTerms = (pool.affinity?.nodeAffinity as {
    requiredDuringSchedulingIgnoredDuringExecution?: {
      nodeSelectorTerms?: { matchExpressions?: unknown[] }[];
    };
  } | undefined)
    ?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (nodeTerms && !nodeTerms.some((t) => (t.matchExpressions?.length ?? 0) > 0)) {
    fields["pools.0.affinity"] = t("wizard.rule.labelPair");
  }
  if (input.erasureCodingParity) {
    let options: string[] = [];
    try {
      options = parityOptions(pool.servers, pool.volumes_per_server);
    } catch (error) {
      if (!(error instanceof ParityError)) throw error;
    }
    if (
      input.erasureCodingParity < 2 || input.erasureCodingParity > 8 ||
      !options.includes(`EC:${input.erasureCodingParity}`)
    ) {
      fields.erasureCodingParity = t("wizard.server.invalidParity");
    }
  }

  const idp = input.idp;
  if (idp?.active_directory) {
    need("idp.active_directory.url", idp.active_directory.url);
    (idp.active_directory.user_dns ?? []).forEach((dn, i) => need(`idp.active_directory.user_dns.${i}`, dn));
  } else if (idp?.oidc) {
    for (const key of ["url", "configuration_url", "client_id", "secret_id", "claim_name"] as const) {
      need(`idp.oidc.${key}`, idp.oidc[key]);
    }
  } else if (idp?.keys) {
    if (idp.keys.length === 0) fields["idp.keys"] = t("wizard.rule.keyPairRequired");
    idp.keys.forEach((pair, i) => {
      if (!isAccessKey(pair.access_key)) fields[`idp.keys.${i}.access_key`] = t("wizard.rule.keyLength");
      if (!isAccessKey(pair.secret_key)) fields[`idp.keys.${i}.secret_key`] = t("wizard.rule.keyLength");
    });
  }

  (input.tls?.minio ?? []).forEach((pair, i) => {
    if (!isBase64(pair.crt)) fields[`tls.minio.${i}.crt`] = t("wizard.server.certRequired");
    if (!isBase64(pair.key)) fields[`tls.minio.${i}.key`] = t("wizard.server.keyRequired");
  });
  const enc = input.encryption;
  if (enc) {
    const providers = [enc.vault, enc.aws, enc.gemalto, enc.gcp].filter(Boolean).length;
    if (providers !== 1) fields.encryption = t("wizard.server.oneProvider");
    if (enc.vault) {
      need("encryption.vault.endpoint", enc.vault.endpoint);
      need("encryption.vault.approle.id", enc.vault.approle.id);
      need("encryption.vault.approle.secret", enc.vault.approle.secret);
    }
    if (enc.aws) {
      const a = enc.aws.secretsmanager;
      need("encryption.aws.secretsmanager.endpoint", a.endpoint);
      need("encryption.aws.secretsmanager.region", a.region);
      need("encryption.aws.secretsmanager.credentials.accesskey", a.credentials.accesskey);
      need("encryption.aws.secretsmanager.credentials.secretkey", a.credentials.secretkey);
    }
    if (enc.gemalto) {
      const g = enc.gemalto.keysecure;
      need("encryption.gemalto.keysecure.endpoint", g.endpoint);
      need("encryption.gemalto.keysecure.credentials.token", g.credentials.token);
      need("encryption.gemalto.keysecure.credentials.domain", g.credentials.domain);
    }
    if (enc.gcp) need("encryption.gcp.secretmanager.project_id", enc.gcp.secretmanager.project_id);
    if (!input.enable_tls) {
      // Without auto-cert, KES needs its own server certificate and MinIO a client one (spec 3 §5 Encryption).
      for (const side of ["server", "client"] as const) {
        if (!enc[side] || !isBase64(enc[side]!.crt) || !isBase64(enc[side]!.key)) {
          fields[`encryption.${side}`] = t("wizard.server.keyAndCertRequired");
        }
      }
    }
  }
  return fields;
}
