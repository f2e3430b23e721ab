/**
 * Configure page (advanced; spec 3 §2.3): custom MinIO image and the images of the tenant's helpers, a custom
 * registry with its credentials, which services to expose, and Log Search / Prometheus storage overrides.
 */
import { SelectField, Switch, TextField } from "../ui/fields.tsx";
import { Section } from "./controls.tsx";
import type { PageProps } from "./NameTenant.tsx";
import { configureErrors, IMAGE_FIELDS } from "./rules.ts";

const IMAGE_LABELS: Record<typeof IMAGE_FIELDS[number][0], string> = {
  logSearchImage: "Log Search Image",
  kesImage: "KES Image",
  postgresImage: "Log Search Postgres Image",
  postgresInitImage: "Log Search Postgres Init Image",
  prometheusImage: "Prometheus Image",
  prometheusSidecarImage: "Prometheus Sidecar Image",
  prometheusInitImage: "Prometheus Init Image",
};

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
          label={`Override ${title} defaults`}
          checked={c[custom]}
          onChange={(v) => set({ [custom]: v, [cls]: c[cls] || classes[0]?.value || "" })}
        />
        {c[custom]
          ? (
            <div className="grid sm:grid-cols-2 gap-x-4">
              <SelectField
                label="Storage Class"
                value={c[cls]}
                options={classes.length ? classes : [{ value: "", label: "No storage class" }]}
                onChange={(v) => set({ [cls]: v })}
              />
              <TextField
                label="Storage Size [Gi]"
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
      <h2 className="text-lg font-bold mb-1">Configure</h2>
      <p className="text-sm text-base-content/70 mb-4">Basic configurations for tenant management</p>
      <Section title="Images">
        <Switch
          label="Use custom image"
          checked={c.customImage}
          onChange={(customImage) => set({ customImage })}
        />
        {c.customImage
          ? (
            <div className="grid sm:grid-cols-2 gap-x-4">
              <TextField
                label="MinIO's Image"
                placeholder="E.g. minio/minio:RELEASE.2021-08-20T18-32-01Z"
                value={c.imageName}
                onChange={(imageName) => set({ imageName })}
                error={errors.imageName}
              />
              {IMAGE_FIELDS.map(([field, example]) => (
                <TextField
                  key={field}
                  label={IMAGE_LABELS[field]}
                  placeholder={`E.g. ${example}:VERSION`}
                  value={c[field]}
                  onChange={(v) => set({ [field]: v })}
                  error={errors[field]}
                />
              ))}
            </div>
          )
          : null}
        <Switch
          label="Set/Update Image Registry"
          checked={c.customRegistry}
          onChange={(customRegistry) => set({ customRegistry })}
        />
        {c.customRegistry
          ? (
            <div className="grid sm:grid-cols-3 gap-x-4">
              <TextField
                label="Endpoint"
                placeholder="E.g. https://index.docker.io/v1/"
                value={c.registry}
                onChange={(registry) => set({ registry })}
                error={errors.registry}
              />
              <TextField
                label="Username"
                value={c.registryUsername}
                onChange={(registryUsername) => set({ registryUsername })}
                error={errors.registryUsername}
              />
              <TextField
                label="Password"
                type="password"
                value={c.registryPassword}
                onChange={(registryPassword) => set({ registryPassword })}
                error={errors.registryPassword}
              />
            </div>
          )
          : null}
      </Section>
      <Section title="Expose Services">
        <Switch
          label="Expose MinIO Service"
          checked={c.exposeMinio}
          onChange={(exposeMinio) => set({ exposeMinio })}
        />
        <Switch
          label="Expose Console Service"
          checked={c.exposeConsole}
          onChange={(exposeConsole) => set({ exposeConsole })}
        />
      </Section>
      {storageOverride("logSearch", "Log Search")}
      {storageOverride("prometheus", "Prometheus")}
    </div>
  );
}
