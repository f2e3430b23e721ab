/**
 * Security page (advanced; spec 3 §2.3, §5): TLS on or off, auto-cert, or custom certificates (MinIO key
 * pairs and CA certificates, each list keeping at least one entry).
 */
import { Switch } from "../ui/fields.tsx";
import { CaList, KeyPairList } from "./CertificateLists.tsx";
import type { PageProps } from "./NameTenant.tsx";

export function Security({ state, patch }: PageProps) {
  const sec = state.security;
  const set = (value: Partial<typeof sec>) => patch("security", value);
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">Security</h2>
      <Switch
        label="TLS"
        checked={sec.enableTLS}
        onChange={(enableTLS) => set({ enableTLS })}
        description="Securing all the traffic using TLS. This is required for Encryption Configuration"
      />
      {sec.enableTLS
        ? (
          <>
            <Switch
              label="Enable AutoCert"
              checked={sec.autoCert}
              onChange={(autoCert) => set({ autoCert })}
              description="The internal certificate authority of the cluster signs MinIO's certificates"
            />
            <Switch
              label="Custom Certificates"
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
