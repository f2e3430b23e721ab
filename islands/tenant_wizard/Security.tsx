/**
 * Security page (advanced; spec 3 §2.3, §5): TLS on or off, auto-cert, or custom certificates (MinIO key
 * pairs and CA certificates, each list keeping at least one entry).
 */
import { t } from "../lib/i18n/t.ts";
import { Switch } from "../ui/fields.tsx";
import { CaList, KeyPairList } from "./CertificateLists.tsx";
import type { PageProps } from "./NameTenant.tsx";

export function Security({ state, patch }: PageProps) {
  const sec = state.security;
  const set = (value: Partial<typeof sec>) => patch("security", value);
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">{t("wizard.steps.security")}</h2>
      <Switch
        label="TLS"
        checked={sec.enableTLS}
        onChange={(enableTLS) => set({ enableTLS })}
        description={t("wizard.security.tlsHelp")}
      />
      {sec.enableTLS
        ? (
          <>
            <Switch
              label={t("wizard.security.enableAutoCert")}
              checked={sec.autoCert}
              onChange={(autoCert) => set({ autoCert })}
              description={t("wizard.security.autoCertHelp")}
            />
            <Switch
              label={t("wizard.word.customCertificates")}
              checked={sec.customCerts}
              onChange={(customCerts) => set({ customCerts })}
            />
          </>
        )
        : null}
      {sec.enableTLS && sec.customCerts
        ? (
          <>
            <KeyPairList pairs={sec.minioCerts} onChange={(minioCerts) => set({ minioCerts })} />
            <CaList cas={sec.caCerts} onChange={(caCerts) => set({ caCerts })} />
          </>
        )
        : null}
    </div>
  );
}
