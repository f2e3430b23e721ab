/**
 * The subscription on the tenant side (operator-k8s.md §3.2 step 4, §3.16): the licence a tenant carries
 * (`MINIO_SUBNET_LICENSE` in its configuration), verified offline like the console's own, and "Attach
 * License", which hands the licence in force (the License page's, license/store.ts) to one tenant:
 * into its `config.env` secret when it has one, else into the Tenant's `spec.env`.
 *
 * Differences from the original, on purpose: only the one `MINIO_SUBNET_LICENSE` line of `config.env` is
 * replaced or appended, so the other lines (values holding "=", such as LDAP DNs, and comments) stay as they
 * were; an immutable configuration secret is refused with a message instead of Kubernetes' 422; a missing
 * licence is 404 "license not found" (the original's 401 "invalid Login" would end the operator's session).
 */
import type { SubnetLicense } from "../../../lib/contract/operator.ts";
import type { OperatorDeps } from "../../k8s/connection.ts";
import { ApiError } from "../../http/errors.ts";
import { t } from "../../../../islands/lib/i18n/t.ts";
import { corePath, tenantPath } from "../../k8s/client.ts";
import type { Secret, Tenant } from "../../k8s/types.ts";
import type { LicenseStore } from "../../license/store.ts";
import { decodeBase64, encodeBase64, getTenant, retryOnConflict } from "./common.ts";

export const LICENSE_VAR = "MINIO_SUBNET_LICENSE";

/** The tenant's licence when its configuration carries a valid one (verified with the console's trusted keys). */
export async function tenantLicense(
  store: LicenseStore,
  config: Record<string, string>,
): Promise<SubnetLicense | undefined> {
  const key = config[LICENSE_VAR];
  if (!key) return undefined;
  return (await store.verify(key)) ?? undefined;
}

/**
 * Sets `export KEY="value"` in config.env text: the first line exporting KEY is replaced, further ones
 * dropped (the last would win when sourced), or the line is appended; every other line is kept as it was.
 */
export function setConfigEnvVar(text: string, key: string, value: string): string {
  const line = `export ${key}="${value}"`;
  const exportsKey = (l: string) => new RegExp(`^export\\s+${key}\\s*=`).test(l);
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const at = lines.findIndex(exportsKey);
  const out = at < 0
    ? [...lines, line]
    : lines.flatMap((l, i) => (i === at ? [line] : exportsKey(l) ? [] : [l]));
  return out.join("\n") + "\n";
}

async function intoConfigSecret(op: OperatorDeps, token: string, tenant: Tenant, key: string): Promise<void> {
  const path = corePath("secrets", {
    namespace: tenant.metadata.namespace,
    name: tenant.spec.configuration!.name,
  });
  const secret = await op.k8s.get<Secret>(token, path);
  if (secret.immutable) {
    throw new ApiError(409, t("operator.license.attachFailed"), {
      detail: t("operator.api.licenceImmutable", { secret: secret.metadata.name, variable: LICENSE_VAR }),
    });
  }
  const text = setConfigEnvVar(decodeBase64(secret.data?.["config.env"]), LICENSE_VAR, key);
  // PUT with the resourceVersion read above: a concurrent change is a 409, and the caller reads again.
  await op.k8s.replace(token, path, {
    ...secret,
    data: { ...(secret.data ?? {}), "config.env": encodeBase64(text) },
  });
}

async function intoTenantEnv(op: OperatorDeps, token: string, tenant: Tenant, key: string): Promise<void> {
  const env = (tenant.spec.env ?? []).filter((e) => e.name !== LICENSE_VAR);
  tenant.spec.env = [...env, { name: LICENSE_VAR, value: key }];
  await op.k8s.replace(token, tenantPath(tenant.metadata.namespace, tenant.metadata.name), tenant);
}

/** POST /subscription/namespaces/{ns}/tenants/{t}/activate: the licence in force into the tenant's configuration. */
export async function attachLicense(
  op: OperatorDeps,
  token: string,
  store: LicenseStore,
  namespace: string,
  name: string,
): Promise<void> {
  await getTenant(op, token, namespace, name); // 404 / 403 for the tenant come before anything about the licence
  const { key, problem } = await store.current();
  if (!key) {
    throw ApiError.notFound(
      t("operator.license.notFound"),
      problem ?? t("operator.license.noneActive"),
    );
  }
  await retryOnConflict(async () => {
    const tenant = await getTenant(op, token, namespace, name);
    if (tenant.spec.configuration?.name) await intoConfigSecret(op, token, tenant, key);
    else await intoTenantEnv(op, token, tenant, key);
  });
}
