/**
 * A tenant's TLS settings (operator-k8s.md §3.10): the auto-cert flag and the certificates of its external
 * certificate and CA secrets, and their update (new secrets, references, removal of the replaced ones).
 */
import { X509Certificate } from "node:crypto";
import type { CertificateInfo, TenantSecurity, UpdateSecurityInput } from "../../../lib/contract/operator.ts";
import type { OperatorDeps } from "../../k8s/connection.ts";
import { ApiError } from "../../http/errors.ts";
import { t } from "../../../../islands/lib/i18n/t.ts";
import { corePath, tenantPath } from "../../k8s/client.ts";
import type { CertRef, Secret } from "../../k8s/types.ts";
import { decodeBase64, getTenant } from "./common.ts";

/** Go's time.String() form the original answered, e.g. "2022-08-05 18:49:03 +0000 UTC". */
function goTime(date: Date): string {
  return date.toISOString().replace("T", " ").replace(/\.\d+Z$/, " +0000 UTC");
}

/** Parses one PEM certificate; null when the text holds none. */
export function describeCertificate(name: string, pem: string): CertificateInfo | null {
  if (!pem.includes("-----BEGIN CERTIFICATE-----")) return null;
  const cert = new X509Certificate(pem);
  const sans = (cert.subjectAltName ?? "").split(/,\s*/).filter(Boolean);
  const dns = sans.filter((s) => s.startsWith("DNS:")).map((s) => s.slice(4));
  const ips = sans.filter((s) => s.startsWith("IP Address:")).map((s) => s.slice(11));
  return {
    serialNumber: BigInt(`0x${cert.serialNumber}`).toString(),
    name,
    domains: [...dns, ...ips],
    expiry: goTime(new Date(cert.validTo)),
  };
}

async function certificatesOf(
  op: OperatorDeps,
  token: string,
  namespace: string,
  refs: CertRef[],
): Promise<CertificateInfo[]> {
  const out: CertificateInfo[] = [];
  for (const ref of refs) {
    const secret = await op.k8s.get<Secret>(token, corePath("secrets", { namespace, name: ref.name }), {
      timeoutMs: 5000,
    });
    const tlsType = ref.type === "kubernetes.io/tls" || ref.type === "cert-manager.io/v1alpha2" ||
      secret.type === "kubernetes.io/tls";
    const pem = decodeBase64(secret.data?.[tlsType ? "tls.crt" : "public.crt"]);
    let info: CertificateInfo | null;
    try {
      info = describeCertificate(ref.name, pem);
    } catch (error) {
      throw new ApiError(500, t("operator.api.tryAgain"), {
        detail: `secret ${ref.name}: ${error instanceof Error ? error.message : error}`,
      });
    }
    if (info) out.push(info);
  }
  return out;
}

export async function tenantSecurity(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
): Promise<TenantSecurity> {
  const tenant = await getTenant(op, token, namespace, name, 5000);
  return {
    autoCert: tenant.spec.requestAutoCert !== false,
    customCertificates: {
      minio: await certificatesOf(op, token, namespace, tenant.spec.externalCertSecret ?? []),
      minioCAs: await certificatesOf(op, token, namespace, tenant.spec.externalCaCertSecret ?? []),
    },
  };
}

const randomSuffix = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(5)), (b) => "abcdefghijklmnopqrstuvwxyz"[b % 26]).join("");

/** POST .../security: new certificate secrets, references updated, replaced secrets removed (§3.10). */
export async function updateTenantSecurity(
  op: OperatorDeps,
  token: string,
  namespace: string,
  name: string,
  input: UpdateSecurityInput,
): Promise<void> {
  const tenant = await getTenant(op, token, namespace, name, 5000);
  const { secretsToBeDeleted = [], minio = [], minioCAs = [] } = input.customCertificates;
  // Only secrets this tenant references may be removed through this call.
  const referenced = new Set(
    [...(tenant.spec.externalCertSecret ?? []), ...(tenant.spec.externalCaCertSecret ?? [])].map((r) =>
      r.name
    ),
  );
  const foreign = secretsToBeDeleted.filter((s) => !referenced.has(s));
  if (foreign.length) {
    throw ApiError.badRequest(
      t("operator.api.updateFailed"),
      t("operator.api.foreignCerts", { names: foreign.join(", ") }),
    );
  }
  for (const pair of minio) {
    if (!pair.crt || !pair.key) {
      throw ApiError.badRequest("unable to update tenant", "certificate files must not be empty");
    }
  }
  tenant.spec.requestAutoCert = input.autoCert;
  const drop = new Set(secretsToBeDeleted);
  tenant.spec.externalCertSecret = (tenant.spec.externalCertSecret ?? []).filter((r) => !drop.has(r.name));
  tenant.spec.externalCaCertSecret = (tenant.spec.externalCaCertSecret ?? []).filter((r) =>
    !drop.has(r.name)
  );
  const prefix = `${name}-${randomSuffix()}`;
  const create = (secretName: string, type: string, data: Record<string, string>) =>
    op.k8s.create(token, corePath("secrets", { namespace }), {
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: secretName, namespace, labels: { "v1.min.io/tenant": name } },
      type,
      immutable: true,
      data,
    });
  for (const [i, pair] of minio.entries()) {
    const secretName = `${prefix}-external-certificates-${i}`;
    await create(secretName, "kubernetes.io/tls", { "tls.crt": pair.crt, "tls.key": pair.key });
    tenant.spec.externalCertSecret.push({ name: secretName, type: "kubernetes.io/tls" });
  }
  for (const [i, ca] of minioCAs.entries()) {
    const secretName = `${prefix}-ca-certificate-${i}`;
    await create(secretName, "Opaque", { "public.crt": ca });
    tenant.spec.externalCaCertSecret.push({ name: secretName, type: "Opaque" });
  }
  if (tenant.spec.externalCertSecret.length === 0) delete tenant.spec.externalCertSecret;
  if (tenant.spec.externalCaCertSecret.length === 0) delete tenant.spec.externalCaCertSecret;
  await op.k8s.replace(token, tenantPath(namespace, name), tenant);
  for (const secretName of secretsToBeDeleted) {
    await op.k8s.delete(token, corePath("secrets", { namespace, name: secretName })).catch(() => {});
  }
}
