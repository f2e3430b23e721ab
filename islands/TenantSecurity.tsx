/**
 * Tenant Security tab (spec 3 §2.3b, §4): the auto-cert and custom-certificate toggles, the tenant's MinIO
 * and CA certificates (removing one marks its secret for deletion), new ones from files (as many key pairs
 * and CAs as needed, posted as lists, spec 3 §7.1), and Save behind a 'Save and Restart' confirmation.
 * Turning custom certificates off removes them all.
 */
import { useState } from "react";
import type { CertificateInfo, TenantSecurity as SecurityInfo } from "../server/lib/contract/operator.ts";
import { operatorApi } from "./lib/api/operator.ts";
import { formatDateTime } from "./lib/format.ts";
import { CaList, KeyPairList, newCaFile, newKeyPair } from "./tenant_wizard/CertificateLists.tsx";
import { type CaFile, completePairs, hasHalfPair, type KeyPairFiles } from "./tenant_wizard/state.ts";
import { ConfirmDialog } from "./ui/Dialog.tsx";
import { Switch } from "./ui/fields.tsx";
import { showSnackbar } from "./lib/notify.ts";
import { t } from "./lib/i18n/t.ts";

export interface TenantSecurityProps {
  namespace: string;
  name: string;
  security: SecurityInfo;
}

function CertificateList(
  { id, title, certs, onRemove }: {
    /** Names the list for tests, in English whatever the language ("MinIO Certificates"). */
    id: string;
    title: string;
    certs: CertificateInfo[];
    onRemove: (name: string) => void;
  },
) {
  return (
    <div className="mb-4">
      <h3 className="font-bold mb-2">{title}</h3>
      {certs.length === 0
        ? <p className="text-sm text-base-content/70">{t("operator.security.noCerts")}</p>
        : null}
      <ul className="flex flex-col gap-2" data-testid={`certs-${id}`}>
        {certs.map((c) => (
          <li
            key={c.name}
            className="flex items-start justify-between gap-2 border border-base-300 rounded p-2 text-sm"
          >
            <div className="min-w-0">
              <div className="font-bold wrap-anywhere">{c.name}</div>
              <div className="wrap-anywhere">{c.domains.join(", ")}</div>
              <div className="text-xs opacity-70">
                {t("operator.security.expiry", { date: formatDateTime(c.expiry) })}
              </div>
            </div>
            <button
              type="button"
              className="btn btn-ghost btn-xs"
              aria-label={t("operator.security.remove", { name: c.name })}
              onClick={() => onRemove(c.name)}
            >
              ✕
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

export default function TenantSecurity({ namespace, name, security: initial }: TenantSecurityProps) {
  const [security, setSecurity] = useState(initial);
  const existing = [...security.customCertificates.minio, ...security.customCertificates.minioCAs];
  const [autoCert, setAutoCert] = useState(initial.autoCert);
  const [customCerts, setCustomCerts] = useState(existing.length > 0);
  const [toDelete, setToDelete] = useState<string[]>([]);
  const [pairs, setPairs] = useState<KeyPairFiles[]>(() => [newKeyPair()]);
  const [cas, setCas] = useState<CaFile[]>(() => [newCaFile()]);
  const [confirming, setConfirming] = useState(false);
  const visible = (list: CertificateInfo[]) => list.filter((c) => !toDelete.includes(c.name));
  const remove = (certName: string) => setToDelete((d) => [...d, certName]);

  async function save() {
    const secretsToBeDeleted = customCerts ? toDelete : existing.map((c) => c.name);
    await operatorApi.updateSecurity(namespace, name, {
      autoCert,
      customCertificates: {
        secretsToBeDeleted,
        minio: customCerts ? completePairs(pairs) : [],
        minioCAs: customCerts ? cas.map((c) => c.cert.value).filter(Boolean) : [],
      },
    });
    setConfirming(false);
    setToDelete([]);
    setPairs([newKeyPair()]);
    setCas([newCaFile()]);
    setSecurity(await operatorApi.security(namespace, name));
    showSnackbar(t("operator.security.saved"));
  }

  const incompletePair = customCerts && hasHalfPair(pairs);
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body">
        <Switch
          label={t("operator.security.autoCert")}
          checked={autoCert}
          onChange={setAutoCert}
          description={t("operator.security.autoCertHelp")}
        />
        <Switch label={t("operator.security.customCerts")} checked={customCerts} onChange={setCustomCerts} />
        {customCerts
          ? (
            <>
              <CertificateList
                id="MinIO Certificates"
                title={t("operator.security.minioCerts")}
                certs={visible(security.customCertificates.minio)}
                onRemove={remove}
              />
              <CertificateList
                id="CA Certificates"
                title={t("operator.security.caCerts")}
                certs={visible(security.customCertificates.minioCAs)}
                onRemove={remove}
              />
              <KeyPairList title={t("operator.security.newMinioCerts")} pairs={pairs} onChange={setPairs} />
              <CaList title={t("operator.security.newCaCerts")} cas={cas} onChange={setCas} />
            </>
          )
          : null}
        <div className="card-actions justify-end">
          <button
            type="button"
            className="btn btn-primary"
            disabled={incompletePair}
            onClick={() => setConfirming(true)}
          >
            {t("common.action.save")}
          </button>
        </div>
      </div>
      <ConfirmDialog
        title={t("operator.security.confirmTitle")}
        open={confirming}
        confirmLabel={t("operator.security.restart")}
        onClose={() => setConfirming(false)}
        onConfirm={save}
      >
        {t("operator.security.confirm")}
      </ConfirmDialog>
    </div>
  );
}
