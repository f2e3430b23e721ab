/**
 * Security page (advanced; spec 3 §2.3, §5): TLS on or off, auto-cert, or custom certificates (MinIO key
 * pairs and CA certificates, each list keeping at least one entry).
 */
import { Switch } from "../ui/fields.tsx";
import { FileField, Section } from "./controls.tsx";
import type { PageProps } from "./NameTenant.tsx";
import { NO_FILE } from "./state.ts";

let nextId = 100;

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
            <Section title="MinIO Certificates">
              {sec.minioCerts.map((pair, i) => (
                <div key={pair.id} className="flex flex-wrap items-end gap-2 border-b border-base-300 mb-2">
                  <FileField
                    label={`Cert ${i + 1}`}
                    kind="cert"
                    value={pair.cert}
                    onChange={(cert) =>
                      set({ minioCerts: sec.minioCerts.map((p) => (p.id === pair.id ? { ...p, cert } : p)) })}
                  />
                  <FileField
                    label={`Key ${i + 1}`}
                    kind="key"
                    value={pair.key}
                    onChange={(key) =>
                      set({ minioCerts: sec.minioCerts.map((p) => (p.id === pair.id ? { ...p, key } : p)) })}
                  />
                  <button
                    type="button"
                    className="btn btn-sm btn-ghost mb-3"
                    aria-label={`Remove certificate ${i + 1}`}
                    onClick={() =>
                      sec.minioCerts.length > 1 &&
                      set({
                        minioCerts: sec.minioCerts.filter((p) =>
                          p.id !== pair.id
                        ),
                      })}
                  >
                    −
                  </button>
                </div>
              ))}
              <button
                type="button"
                className="btn btn-sm"
                onClick={() =>
                  set({ minioCerts: [...sec.minioCerts, { id: nextId++, key: NO_FILE, cert: NO_FILE }] })}
              >
                Add Certificate
              </button>
            </Section>
            <Section title="CA Certificates">
              {sec.caCerts.map((ca, i) => (
                <div key={ca.id} className="flex items-end gap-2">
                  <FileField
                    label={`CA Cert ${i + 1}`}
                    kind="cert"
                    value={ca.cert}
                    onChange={(cert) =>
                      set({ caCerts: sec.caCerts.map((c) => (c.id === ca.id ? { ...c, cert } : c)) })}
                  />
                  <button
                    type="button"
                    className="btn btn-sm btn-ghost mb-3"
                    aria-label={`Remove CA certificate ${i + 1}`}
                    onClick={() =>
                      sec.caCerts.length > 1 && set({ caCerts: sec.caCerts.filter((c) => c.id !== ca.id) })}
                  >
                    −
                  </button>
                </div>
              ))}
              <button
                type="button"
                className="btn btn-sm"
                onClick={() => set({ caCerts: [...sec.caCerts, { id: nextId++, cert: NO_FILE }] })}
              >
                Add CA Certificate
              </button>
            </Section>
          </>
        )
        : null}
    </div>
  );
}
