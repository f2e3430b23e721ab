/**
 * Encryption page (advanced; spec 3 §2.3, §5): KES with Vault, AWS Secrets Manager, Gemalto KeySecure or
 * GCP Secret Manager, and optionally its own server and MinIO client certificates.
 */
import { t } from "../lib/i18n/t.ts";
import { Switch, TextField } from "../ui/fields.tsx";
import { FileField, RadioGroup, Section } from "./controls.tsx";
import type { PageProps } from "./NameTenant.tsx";
import { encryptionErrors } from "./rules.ts";

export function Encryption({ state, patch }: PageProps) {
  const e = state.encryption;
  const errors = encryptionErrors(state);
  const set = (value: Partial<typeof e>) => patch("encryption", value);
  const vault = (v: Partial<typeof e.vault>) => set({ vault: { ...e.vault, ...v } });
  const aws = (v: Partial<typeof e.aws>) => set({ aws: { ...e.aws, ...v } });
  const gemalto = (v: Partial<typeof e.gemalto>) => set({ gemalto: { ...e.gemalto, ...v } });
  const gcp = (v: Partial<typeof e.gcp>) => set({ gcp: { ...e.gcp, ...v } });
  const needsTls = !state.security.enableTLS;
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">{t("wizard.steps.encryption")}</h2>
      <p className="text-sm text-base-content/70 mb-4">
        {t("wizard.encryption.intro")}
      </p>
      {needsTls
        ? (
          <div role="alert" className="alert alert-info text-sm mb-3">
            {t("wizard.encryption.needsTls")}
          </div>
        )
        : null}
      <Switch
        label={t("wizard.encryption.enable")}
        checked={e.enabled}
        onChange={(enabled) =>
          set({
            enabled,
            customCerts: enabled && e.kind === "vault" ? !state.security.customCerts : e.customCerts,
          })}
      />
      {e.enabled
        ? (
          <>
            <RadioGroup
              label={t("wizard.encryption.options")}
              value={e.kind}
              onChange={(kind) =>
                set({ kind, customCerts: kind === "vault" ? !state.security.customCerts : e.customCerts })}
              options={[{ value: "vault", label: "Vault" }, { value: "aws", label: "AWS" }, {
                value: "gemalto",
                label: "Gemalto",
              }, { value: "gcp", label: "GCP" }]}
            />
            <Switch
              label={t("wizard.word.customCertificates")}
              checked={e.customCerts}
              onChange={(customCerts) => set({ customCerts })}
              description={t("wizard.encryption.customCertsHelp")}
            />
            {e.customCerts
              ? (
                <div className="grid sm:grid-cols-2 gap-x-4">
                  <FileField
                    label={t("wizard.encryption.serviceCert")}
                    kind="cert"
                    value={e.server.cert}
                    onChange={(cert) => set({ server: { ...e.server, cert } })}
                  />
                  <FileField
                    label={t("wizard.encryption.serviceKey")}
                    kind="key"
                    value={e.server.key}
                    onChange={(key) => set({ server: { ...e.server, key } })}
                  />
                  <FileField
                    label={t("wizard.encryption.clientCert")}
                    kind="cert"
                    value={e.client.cert}
                    onChange={(cert) => set({ client: { ...e.client, cert } })}
                  />
                  <FileField
                    label={t("wizard.encryption.clientKey")}
                    kind="key"
                    value={e.client.key}
                    onChange={(key) => set({ client: { ...e.client, key } })}
                  />
                  {["server.key", "server.cert", "client.key", "client.cert"].some((f) => errors[f])
                    ? (
                      <p className="text-error text-sm" role="alert">
                        {t("wizard.encryption.certsRequired")}
                      </p>
                    )
                    : null}
                </div>
              )
              : null}
            {e.kind === "vault"
              ? (
                <Section title="Vault">
                  <div className="grid sm:grid-cols-2 gap-x-4">
                    <TextField
                      label={t("wizard.word.endpoint")}
                      value={e.vault.endpoint}
                      onChange={(endpoint) => vault({ endpoint })}
                      error={errors["vault.endpoint"]}
                    />
                    <TextField
                      label={t("wizard.encryption.engine")}
                      value={e.vault.engine}
                      onChange={(engine) => vault({ engine })}
                    />
                    <TextField
                      label={t("wizard.word.namespace")}
                      value={e.vault.namespace}
                      onChange={(namespace) => vault({ namespace })}
                    />
                    <TextField
                      label={t("wizard.encryption.prefix")}
                      value={e.vault.prefix}
                      onChange={(prefix) => vault({ prefix })}
                    />
                    <TextField
                      label={t("wizard.encryption.approleEngine")}
                      value={e.vault.approleEngine}
                      onChange={(approleEngine) => vault({ approleEngine })}
                    />
                    <TextField
                      label={t("wizard.encryption.approleId")}
                      value={e.vault.approleId}
                      onChange={(approleId) => vault({ approleId })}
                      error={errors["vault.approleId"]}
                    />
                    <TextField
                      label={t("wizard.encryption.approleSecret")}
                      type="password"
                      value={e.vault.approleSecret}
                      onChange={(approleSecret) => vault({ approleSecret })}
                      error={errors["vault.approleSecret"]}
                    />
                    <TextField
                      label={t("wizard.encryption.retrySeconds")}
                      type="number"
                      value={e.vault.retry}
                      onChange={(retry) => vault({ retry })}
                      error={errors["vault.retry"]}
                    />
                    <TextField
                      label={t("wizard.encryption.pingSeconds")}
                      type="number"
                      value={e.vault.ping}
                      onChange={(ping) => vault({ ping })}
                      error={errors["vault.ping"]}
                    />
                  </div>
                  <FileField
                    label={t("wizard.encryption.vaultKey")}
                    kind="key"
                    value={e.vault.key}
                    onChange={(key) => vault({ key })}
                  />
                  <FileField
                    label={t("wizard.encryption.vaultCert")}
                    kind="cert"
                    value={e.vault.cert}
                    onChange={(cert) => vault({ cert })}
                  />
                  <FileField
                    label={t("wizard.encryption.vaultCa")}
                    kind="cert"
                    value={e.vault.ca}
                    onChange={(ca) => vault({ ca })}
                  />
                </Section>
              )
              : null}
            {e.kind === "aws"
              ? (
                <Section title="AWS Secrets Manager">
                  <div className="grid sm:grid-cols-2 gap-x-4">
                    <TextField
                      label={t("wizard.word.endpoint")}
                      value={e.aws.endpoint}
                      onChange={(endpoint) => aws({ endpoint })}
                      error={errors["aws.endpoint"]}
                    />
                    <TextField
                      label={t("wizard.encryption.region")}
                      value={e.aws.region}
                      onChange={(region) => aws({ region })}
                      error={errors["aws.region"]}
                    />
                    <TextField
                      label={t("wizard.encryption.kmsKey")}
                      value={e.aws.kmsKey}
                      onChange={(kmsKey) => aws({ kmsKey })}
                    />
                    <TextField
                      label={t("wizard.word.accessKey")}
                      value={e.aws.accessKey}
                      onChange={(accessKey) => aws({ accessKey })}
                      error={errors["aws.accessKey"]}
                    />
                    <TextField
                      label={t("wizard.word.secretKey")}
                      type="password"
                      value={e.aws.secretKey}
                      onChange={(secretKey) => aws({ secretKey })}
                      error={errors["aws.secretKey"]}
                    />
                    <TextField
                      label={t("wizard.word.token")}
                      value={e.aws.token}
                      onChange={(token) => aws({ token })}
                    />
                  </div>
                </Section>
              )
              : null}
            {e.kind === "gemalto"
              ? (
                <Section title="Gemalto KeySecure">
                  <div className="grid sm:grid-cols-2 gap-x-4">
                    <TextField
                      label={t("wizard.word.endpoint")}
                      value={e.gemalto.endpoint}
                      onChange={(endpoint) => gemalto({ endpoint })}
                      error={errors["gemalto.endpoint"]}
                    />
                    <TextField
                      label={t("wizard.word.token")}
                      value={e.gemalto.token}
                      onChange={(token) => gemalto({ token })}
                      error={errors["gemalto.token"]}
                    />
                    <TextField
                      label={t("wizard.encryption.domain")}
                      value={e.gemalto.domain}
                      onChange={(domain) => gemalto({ domain })}
                      error={errors["gemalto.domain"]}
                    />
                    <TextField
                      label={t("wizard.encryption.retrySeconds")}
                      type="number"
                      value={e.gemalto.retry}
                      onChange={(retry) => gemalto({ retry })}
                      error={errors["gemalto.retry"]}
                    />
                  </div>
                  <FileField label="CA" kind="cert" value={e.gemalto.ca} onChange={(ca) => gemalto({ ca })} />
                </Section>
              )
              : null}
            {e.kind === "gcp"
              ? (
                <Section title="GCP Secret Manager">
                  <div className="grid sm:grid-cols-2 gap-x-4">
                    <TextField
                      label={t("wizard.encryption.projectId")}
                      value={e.gcp.projectId}
                      onChange={(projectId) => gcp({ projectId })}
                      error={errors["gcp.projectId"]}
                    />
                    <TextField
                      label={t("wizard.word.endpoint")}
                      value={e.gcp.endpoint}
                      onChange={(endpoint) => gcp({ endpoint })}
                    />
                    <TextField
                      label={t("wizard.encryption.clientEmail")}
                      value={e.gcp.clientEmail}
                      onChange={(clientEmail) => gcp({ clientEmail })}
                    />
                    <TextField
                      label={t("wizard.word.clientId")}
                      value={e.gcp.clientId}
                      onChange={(clientId) => gcp({ clientId })}
                    />
                    <TextField
                      label={t("wizard.encryption.privateKeyId")}
                      value={e.gcp.privateKeyId}
                      onChange={(privateKeyId) => gcp({ privateKeyId })}
                    />
                    <TextField
                      label={t("wizard.encryption.privateKey")}
                      type="password"
                      value={e.gcp.privateKey}
                      onChange={(privateKey) => gcp({ privateKey })}
                    />
                  </div>
                </Section>
              )
              : null}
          </>
        )
        : null}
    </div>
  );
}
