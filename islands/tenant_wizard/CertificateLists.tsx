/**
 * The certificate lists a tenant takes (spec 3 §3): MinIO key pairs and CA certificates, as many as needed,
 * each list keeping at least one row (removing the last is ignored). Shared by the wizard's Security page
 * and a tenant's Security tab, which both send them as lists.
 */
import { t } from "../lib/i18n/t.ts";
import { FileField, Section } from "./controls.tsx";
import { type CaFile, type KeyPairFiles, NO_FILE } from "./state.ts";

let nextId = 100;
export const newKeyPair = (): KeyPairFiles => ({ id: nextId++, key: NO_FILE, cert: NO_FILE });
export const newCaFile = (): CaFile => ({ id: nextId++, cert: NO_FILE });

function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="btn btn-sm btn-ghost mb-3" aria-label={label} onClick={onClick}>
      −
    </button>
  );
}

export function KeyPairList({ pairs, onChange, title = t("wizard.certs.minioCertificates") }: {
  pairs: KeyPairFiles[];
  onChange: (pairs: KeyPairFiles[]) => void;
  title?: string;
}) {
  const update = (id: number, part: Partial<KeyPairFiles>) =>
    onChange(pairs.map((p) => (p.id === id ? { ...p, ...part } : p)));
  return (
    <Section title={title}>
      {pairs.map((pair, i) => (
        <div key={pair.id} className="flex flex-wrap items-end gap-2 border-b border-base-300 mb-2">
          <FileField
            label={t("wizard.certs.certN", { n: i + 1 })}
            kind="cert"
            value={pair.cert}
            onChange={(cert) =>
              update(pair.id, { cert })}
          />
          <FileField
            label={t("wizard.certs.keyN", { n: i + 1 })}
            kind="key"
            value={pair.key}
            onChange={(key) =>
              update(pair.id, { key })}
          />
          <RemoveButton
            label={t("wizard.certs.removeCertificate", { n: i + 1 })}
            onClick={() => pairs.length > 1 && onChange(pairs.filter((p) => p.id !== pair.id))}
          />
        </div>
      ))}
      <button type="button" className="btn btn-sm" onClick={() => onChange([...pairs, newKeyPair()])}>
        {t("wizard.certs.addCertificate")}
      </button>
    </Section>
  );
}

export function CaList({ cas, onChange, title = t("wizard.certs.caCertificates") }: {
  cas: CaFile[];
  onChange: (cas: CaFile[]) => void;
  title?: string;
}) {
  return (
    <Section title={title}>
      {cas.map((ca, i) => (
        <div key={ca.id} className="flex items-end gap-2">
          <FileField
            label={t("wizard.certs.caCertN", { n: i + 1 })}
            kind="cert"
            value={ca.cert}
            onChange={(cert) => onChange(cas.map((c) => (c.id === ca.id ? { ...c, cert } : c)))}
          />
          <RemoveButton
            label={t("wizard.certs.removeCaCertificate", { n: i + 1 })}
            onClick={() => cas.length > 1 && onChange(cas.filter((c) => c.id !== ca.id))}
          />
        </div>
      ))}
      <button type="button" className="btn btn-sm" onClick={() => onChange([...cas, newCaFile()])}>
        {t("wizard.certs.addCaCertificate")}
      </button>
    </Section>
  );
}
