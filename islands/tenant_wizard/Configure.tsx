/**
 * Configure page (advanced; spec 3 §2.3): custom MinIO image and the images of the tenant's helpers, a custom
 * registry with its credentials, which services to expose, and Log Search / Prometheus storage overrides.
 */
import { t } from "../lib/i18n/t.ts";
import { SelectField, Switch, TextField } from "../ui/fields.tsx";
import { Section } from "./controls.tsx";
import type { PageProps } from "./NameTenant.tsx";
import { configureErrors, IMAGE_FIELDS } from "./rules.ts";

const imageLabels = (): Record<typeof IMAGE_FIELDS[number][0], string> => ({
  logSearchImage: t("wizard.configure.logSearchImage"),
  kesImage: t("wizard.configure.kesImage"),
  postgresImage: t("wizard.configure.postgresImage"),
  postgresInitImage: t("wizard.configure.postgresInitImage"),
  prometheusImage: t("wizard.configure.prometheusImage"),
  prometheusSidecarImage: t("wizard.configure.prometheusSidecarImage"),
  prometheusInitImage: t("wizard.configure.prometheusInitImage"),
});

export function Configure({ state, patch }: PageProps) {
  const c = state.configure;
  const errors = configureErrors(state);
  const set = (value: Partial<typeof c>) => patch("configure", value);
  const classes = state.namespaceCheck.classes.map((cl) => ({ value: cl.name, label: cl.name }));
  const storageOverride = (prefix: "logSearch" | "prometheus", title: string) => {
    const custom = `${prefix}Custom` as const;
    const cls = `${prefix}Class` as const;
    const size = `${prefix}Size` as const;
    return (
      <Section title={title}>
        <Switch
          label={t("wizard.configure.override", { title })}
          checked={c[custom]}
          onChange={(v) => set({ [custom]: v, [cls]: c[cls] || classes[0]?.value || "" })}
        />
        {c[custom]
          ? (
            <div className="grid sm:grid-cols-2 gap-x-4">
              <SelectField
                label={t("wizard.word.storageClass")}
                value={c[cls]}
                options={classes.length
                  ? classes
                  : [{ value: "", label: t("wizard.configure.noStorageClass") }]}
                onChange={(v) => set({ [cls]: v })}
              />
              <TextField
                label={t("wizard.configure.storageSize")}
                type="number"
                value={c[size]}
                onChange={(v) => set({ [size]: v })}
                error={errors[size] ?? errors[cls]}
              />
            </div>
          )
          : null}
      </Section>
    );
  };
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">{t("wizard.steps.configure")}</h2>
      <p className="text-sm text-base-content/70 mb-4">{t("wizard.configure.intro")}</p>
      <Section title={t("wizard.configure.images")}>
        <Switch
          label={t("wizard.configure.useCustomImage")}
          checked={c.customImage}
          onChange={(customImage) => set({ customImage })}
        />
        {c.customImage
          ? (
            <div className="grid sm:grid-cols-2 gap-x-4">
              <TextField
                label={t("wizard.configure.minioImage")}
                placeholder={t("wizard.configure.example", {
                  example: "minio/minio:RELEASE.2021-08-20T18-32-01Z",
                })}
                value={c.imageName}
                onChange={(imageName) => set({ imageName })}
                error={errors.imageName}
              />
              {IMAGE_FIELDS.map(([field, example]) => (
                <TextField
                  key={field}
                  label={imageLabels()[field]}
                  placeholder={t("wizard.configure.example", { example: `${example}:VERSION` })}
                  value={c[field]}
                  onChange={(v) => set({ [field]: v })}
                  error={errors[field]}
                />
              ))}
            </div>
          )
          : null}
        <Switch
          label={t("wizard.configure.setRegistry")}
          checked={c.customRegistry}
          onChange={(customRegistry) => set({ customRegistry })}
        />
        {c.customRegistry
          ? (
            <div className="grid sm:grid-cols-3 gap-x-4">
              <TextField
                label={t("wizard.word.endpoint")}
                placeholder={t("wizard.configure.example", { example: "https://index.docker.io/v1/" })}
                value={c.registry}
                onChange={(registry) => set({ registry })}
                error={errors.registry}
              />
              <TextField
                label={t("wizard.configure.username")}
                value={c.registryUsername}
                onChange={(registryUsername) => set({ registryUsername })}
                error={errors.registryUsername}
              />
              <TextField
                label={t("wizard.configure.password")}
                type="password"
                value={c.registryPassword}
                onChange={(registryPassword) => set({ registryPassword })}
                error={errors.registryPassword}
              />
            </div>
          )
          : null}
      </Section>
      <Section title={t("wizard.configure.exposeServices")}>
        <Switch
          label={t("wizard.configure.exposeMinio")}
          checked={c.exposeMinio}
          onChange={(exposeMinio) => set({ exposeMinio })}
        />
        <Switch
          label={t("wizard.configure.exposeConsole")}
          checked={c.exposeConsole}
          onChange={(exposeConsole) => set({ exposeConsole })}
        />
      </Section>
      {storageOverride("logSearch", t("wizard.configure.logSearch"))}
      {storageOverride("prometheus", "Prometheus")}
    </div>
  );
}
