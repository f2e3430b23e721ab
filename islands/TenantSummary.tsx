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

export interface TenantSummaryProps {
  info: TenantInfo;
  base: string;
}

function UpdateVersionDialog({ info, onClose }: { info: TenantInfo; onClose: () => void }) {
  const [image, setImage] = useState(info.image ?? "");
  const [custom, setCustom] = useState(false);
  const [registry, setRegistry] = useState({ registry: "", username: "", password: "" });
  const action = useDialogAction();
  const imageError = image && !isImage(image) ? "Format must be of form: 'minio/minio:VERSION'" : undefined;
  const registryOk = !custom || (registry.registry && registry.username && registry.password);
  return (
    <Dialog
      title="Update MinIO Version"
      open
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: "Save",
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
        label="Image"
        placeholder="E.g. minio/minio:RELEASE.2021-08-20T18-32-01Z"
        value={image}
        onChange={setImage}
        error={imageError}
      />
      <Switch label="Set Custom Image Registry" checked={custom} onChange={setCustom} />
      {custom
        ? (
          <>
            <TextField
              label="Endpoint"
              value={registry.registry}
              onChange={(v) => setRegistry({ ...registry, registry: v })}
            />
            <TextField
              label="Username"
              value={registry.username}
              onChange={(v) => setRegistry({ ...registry, username: v })}
            />
            <TextField
              label="Password"
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
  const [error, setError] = useState("");
  useEffect(() => {
    operatorApi.usage(info.namespace, info.name).then(
      setUsage,
      (e) =>
        setError(e instanceof ApiClientError ? `${e.message}${e.detail ? `: ${e.detail}` : ""}` : String(e)),
    );
  }, []);
  // The bar shows the data stored against the tenant's capacity; the drives' own usage is given beside it.
  const used = usage?.used ?? 0;
  const percent = info.total_size ? Math.min(100, (used / info.total_size) * 100) : 0;
  return (
    <div className="card bg-base-100 shadow-sm" data-testid="tenant-usage">
      <div className="card-body py-4">
        <h3 className="font-bold">Storage</h3>
        {error ? <p className="text-error text-sm" role="alert">{error}</p> : null}
        {!usage && !error
          ? <span role="status" className="loading loading-dots loading-sm" aria-label="Loading usage" />
          : null}
        {usage
          ? (
            <>
              <progress
                className="progress progress-primary w-full"
                value={percent}
                max={100}
                aria-label="Storage used"
              />
              <p className="text-sm">
                {formatBytes(used)} used of {formatBytes(info.total_size)} · drives report{" "}
                {formatBytes(usage.disk_used)} in use
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
  const flags: [string, boolean][] = [
    ["Logs", info.logEnabled],
    ["Monitoring", info.monitoringEnabled],
    ["MinIO TLS", info.minioTLS],
    ["Encryption", info.encryptionEnabled],
    ["Active Directory", info.idpAdEnabled],
    ["OpenID", info.idpOidcEnabled],
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
            {item("Capacity", formatBytes(info.total_size))}
            {item("Clusters", info.pools.length)}
            {item("Instances", instances)}
            {item("Volumes", volumes)}
            {item(
              "MinIO Endpoint",
              info.endpoints?.minio
                ? (
                  <a className="link" href={info.endpoints.minio} target="_blank" rel="noopener noreferrer">
                    {info.endpoints.minio}
                  </a>
                )
                : "-",
            )}
            {item(
              "Console Endpoint",
              info.endpoints?.console
                ? (
                  <a className="link" href={info.endpoints.console} target="_blank" rel="noopener noreferrer">
                    {info.endpoints.console}
                  </a>
                )
                : "-",
            )}
            {item(
              "MinIO Image",
              <button
                type="button"
                className="link text-left wrap-anywhere"
                onClick={() => setUpdating(true)}
              >
                {info.image || "Default"}
              </button>,
            )}
            {item("State", info.currentState || "-")}
          </dl>
        </div>
      </div>
      <UsageBar info={info} />
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body py-4">
          <h3 className="font-bold flex items-center gap-2">
            <HealthDot status={info.status.health_status} /> Health
          </h3>
          <dl className="grid grid-cols-3 gap-4" data-testid="tenant-health">
            {item("Drives Online", info.status.drives_online ?? 0)}
            {item("Drives Offline", info.status.drives_offline ?? 0)}
            {item("Write Quorum", info.status.write_quorum ?? 0)}
          </dl>
          <div>
            <a
              className="btn btn-sm btn-primary mt-2"
              href={`${base}namespaces/${encodeURIComponent(info.namespace)}/tenants/${
                encodeURIComponent(info.name)
              }/hop`}
            >
              Manage Tenant
            </a>
          </div>
        </div>
      </div>
      <div className="card bg-base-100 shadow-sm">
        <div className="card-body py-4">
          <h3 className="font-bold">Features</h3>
          <ul className="grid grid-cols-2 lg:grid-cols-3 gap-2" data-testid="tenant-features">
            {flags.map(([label, on]) => (
              <li key={label} className="flex justify-between gap-2 border-b border-base-300 py-1">
                <span>{label}</span>
                <span className={`badge ${on ? "badge-success" : "badge-ghost"}`}>
                  {on ? "Enabled" : "Disabled"}
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
