/**
 * Tenant Summary tab (spec 3 §2.3b): capacity, pools (as Clusters), instances, volumes, endpoints, image (the
 * update-version dialog), state, the storage usage bar, health, 'Manage Tenant' and the feature flags.
 */
import { useEffect, useState } from "react";
import type { TenantInfo, TenantUsage } from "../server/lib/contract/operator.ts";
import { isImage } from "../server/lib/contract/operator_rules.ts";
import { operatorApi } from "./lib/api/operator.ts";
import { ApiClientError } from "./lib/request.ts";
import { formatBytes } from "./lib/format.ts";
import { HealthDot } from "./tenant/parts.tsx";
import { Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { Switch, TextField } from "./ui/fields.tsx";
import { t } from "./lib/i18n/t.ts";

export interface TenantSummaryProps {
  info: TenantInfo;
  base: string;
}

function UpdateVersionDialog({ info, onClose }: { info: TenantInfo; onClose: () => void }) {
  const [image, setImage] = useState(info.image ?? "");
  const [custom, setCustom] = useState(false);
  const [registry, setRegistry] = useState({ registry: "", username: "", password: "" });
  const action = useDialogAction();
  const imageError = image && !isImage(image) ? t("operator.summary.imageFormat") : undefined;
  const registryOk = !custom || (registry.registry && registry.username && registry.password);
  return (
    <Dialog
      title={t("operator.summary.updateTitle")}
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: t("common.action.save"),
        disabled: !!imageError || !registryOk || action.busy,
        onClick: () =>
          action.run(async () => {
            await operatorApi.updateTenant(info.namespace, info.name, {
              image,
              enable_prometheus: info.enable_prometheus,
              ...(custom ? { image_registry: registry } : {}),
            });
            location.reload();
          }),
      }}
    >
      <TextField
        label={t("operator.summary.image")}
        placeholder={t("operator.summary.imagePlaceholder")}
        value={image}
        onChange={setImage}
        error={imageError}
      />
      <Switch label={t("operator.summary.customRegistry")} checked={custom} onChange={setCustom} />
      {custom
        ? (
          <>
            <TextField
              label={t("operator.summary.endpoint")}
              value={registry.registry}
              onChange={(v) => setRegistry({ ...registry, registry: v })}
            />
            <TextField
              label={t("operator.summary.username")}
              value={registry.username}
              onChange={(v) => setRegistry({ ...registry, username: v })}
            />
            <TextField
              label={t("operator.summary.password")}
              type="password"
              value={registry.password}
              onChange={(v) => setRegistry({ ...registry, password: v })}
            />
          </>
        )
        : null}
    </Dialog>
  );
}

function UsageBar({ info }: { info: TenantInfo }) {
  const [usage, setUsage] = useState<TenantUsage | null>(null);
  const [error, setError] = useState<{ message: string; detail?: string } | null>(null);
  useEffect(() => {
    operatorApi.usage(info.namespace, info.name).then(
      setUsage,
      (e) =>
        setError(
          e instanceof ApiClientError ? { message: e.message, detail: e.detail } : { message: String(e) },
        ),
    );
  }, []);
  // The bar shows the data stored against the tenant's capacity; the drives' own usage is given beside it.
  const used = usage?.used ?? 0;
  const percent = info.total_size ? Math.min(100, (used / info.total_size) * 100) : 0;
  return (
    <div className="card bg-base-100 shadow-sm" data-testid="tenant-usage">
      <div className="card-body py-4">
        <h3 className="font-bold">{t("operator.summary.storage")}</h3>
        {error
          ? (
            <p className="text-error text-sm" role="alert">
              {error.message}
              {/* the cause as the tenant or Kubernetes gave it */}
              {error.detail
                ? (
                  <>
                    : <span translate="no">{error.detail}</span>
                  </>
                )
                : null}
            </p>
          )
          : null}
        {!usage && !error
          ? (
            <span
              role="status"
              className="loading loading-dots loading-sm"
              aria-label={t("operator.summary.loadingUsage")}
            />
          )
          : null}
        {usage
          ? (
            <>
              <progress
                className="progress progress-primary w-full"
                value={percent}
                max={100}
                aria-label={t("operator.summary.storageUsed")}
              />
              <p className="text-sm">
                {t("operator.summary.usage", {
                  used: formatBytes(used),
                  total: formatBytes(info.total_size),
                  disk: formatBytes(usage.disk_used),
                })}
              </p>
            </>
          )
          : null}
      </div>
    </div>
  );
}

export default function TenantSummary({ info, base }: TenantSummaryProps) {
  const [updating, setUpdating] = useState(false);
  const instances = info.pools.reduce((sum, p) => sum + p.servers, 0);
  const volumes = info.pools.reduce((sum, p) => sum + p.servers * p.volumes_per_server, 0);
  // The third value marks a product or protocol name, kept as it is in every language.
  const flags: [string, boolean, boolean?][] = [
    [t("operator.summary.logs"), info.logEnabled],
    [t("operator.summary.monitoring"), info.monitoringEnabled],
    ["MinIO TLS", info.minioTLS, true],
    [t("operator.summary.encryption"), info.encryptionEnabled],
    ["Active Directory", info.idpAdEnabled, true],
    ["OpenID", info.idpOidcEnabled, true],
  ];
  const item = (label: string, value: React.ReactNode) => (
    <div>
      <dt className="text-xs uppercase opacity-70">{label}</dt>
      <dd className="font-bold wrap-anywhere">{value}</dd>
    </div>
  );
  return (
    <div className="flex flex-col gap-4">
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body py-4">
          <dl className="grid grid-cols-2 lg:grid-cols-4 gap-4" data-testid="tenant-details">
            {item(t("operator.word.capacity"), formatBytes(info.total_size))}
            {item(t("operator.summary.clusters"), info.pools.length)}
            {item(t("operator.summary.instances"), instances)}
            {item(t("operator.word.volumes"), volumes)}
            {item(
              t("operator.summary.minioEndpoint"),
              info.endpoints?.minio
                ? (
                  <a className="link" href={info.endpoints.minio} target="_blank" rel="noopener noreferrer">
                    {info.endpoints.minio}
                  </a>
                )
                : "-",
            )}
            {item(
              t("operator.summary.consoleEndpoint"),
              info.endpoints?.console
                ? (
                  <a className="link" href={info.endpoints.console} target="_blank" rel="noopener noreferrer">
                    {info.endpoints.console}
                  </a>
                )
                : "-",
            )}
            {item(
              t("operator.summary.minioImage"),
              <button
                type="button"
                className="link text-left wrap-anywhere"
                onClick={() => setUpdating(true)}
              >
                {info.image || t("operator.word.default")}
              </button>,
            )}
            {item(t("operator.word.state"), <span translate="no">{info.currentState || "-"}</span>)}
          </dl>
        </div>
      </div>
      <UsageBar info={info} />
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body py-4">
          <h3 className="font-bold flex items-center gap-2">
            <HealthDot status={info.status.health_status} /> {t("operator.summary.health")}
          </h3>
          <dl className="grid grid-cols-3 gap-4" data-testid="tenant-health">
            {item(t("operator.summary.drivesOnline"), info.status.drives_online ?? 0)}
            {item(t("operator.summary.drivesOffline"), info.status.drives_offline ?? 0)}
            {item(t("operator.summary.writeQuorum"), info.status.write_quorum ?? 0)}
          </dl>
          <div>
            <a
              className="btn btn-sm btn-primary mt-2"
              href={`${base}namespaces/${encodeURIComponent(info.namespace)}/tenants/${
                encodeURIComponent(info.name)
              }/hop`}
            >
              {t("operator.summary.manage")}
            </a>
          </div>
        </div>
      </div>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body py-4">
          <h3 className="font-bold">{t("operator.summary.features")}</h3>
          <ul className="grid grid-cols-2 lg:grid-cols-3 gap-2" data-testid="tenant-features">
            {flags.map(([label, on, name]) => (
              <li key={label} className="flex justify-between gap-2 border-b border-base-300 py-1">
                <span translate={name ? "no" : undefined}>{label}</span>
                <span className={`badge ${on ? "badge-success" : "badge-ghost"}`}>
                  {on ? t("common.word.enabled") : t("common.word.disabled")}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </div>
      {updating ? <UpdateVersionDialog info={info} onClose={() => setUpdating(false)} /> : null}
    </div>
  );
}
