/**
 * The eight configurations of Settings › Configurations (spec 2 §2, §3) with their fields, and which form a
 * config subsystem name has (configurations here, notification targets in settings_targets.ts). Labels, help
 * texts and problems are message keys of the settings catalogue (see FieldDef).
 */
import { comment, durationCheck, type FieldDef, hostPortCheck, urlCheck } from "./settings_fields.ts";
import { notificationServiceDef } from "./settings_targets.ts";

export interface ConfigurationDef {
  id: string;
  /** Message key of the configuration's name. */
  label: string;
  fields: FieldDef[];
}

export const CONFIGURATIONS: ConfigurationDef[] = [
  {
    id: "region",
    label: "settings.configurations.region",
    fields: [
      {
        name: "name",
        label: "settings.field.region.name.label",
        type: "string",
        required: true,
        tooltip: "settings.field.region.name.help",
        placeholder: "settings.field.region.name.placeholder",
        check: (
          v,
        ) => (/^[a-zA-Z][a-zA-Z0-9-_]+$/.test(v) ? "" : "settings.validation.regionName"),
      },
      comment,
    ],
  },
  {
    id: "cache",
    label: "settings.configurations.cache",
    fields: [
      {
        name: "drives",
        label: "settings.field.cache.drives.label",
        type: "csv",
        required: true,
        tooltip: "settings.field.cache.drives.help",
        placeholder: "settings.field.cache.drives.placeholder",
      },
      {
        name: "expiry",
        label: "settings.field.cache.expiry.label",
        type: "number",
        tooltip: "settings.field.cache.expiry.help",
        placeholder: "settings.field.cache.expiry.placeholder",
      },
      {
        name: "quota",
        label: "settings.field.cache.quota.label",
        type: "number",
        tooltip: "settings.field.cache.quota.help",
        placeholder: "settings.field.cache.quota.placeholder",
      },
      {
        name: "exclude",
        label: "settings.field.cache.exclude.label",
        type: "csv",
        tooltip: "settings.field.cache.exclude.help",
        placeholder: "settings.field.cache.exclude.placeholder",
      },
      {
        name: "after",
        label: "settings.field.cache.after.label",
        type: "number",
        tooltip: "settings.field.cache.after.help",
        placeholder: "settings.field.cache.after.placeholder",
      },
      {
        name: "watermark_low",
        label: "settings.field.cache.watermarkLow.label",
        type: "number",
        tooltip: "settings.field.cache.watermarkLow.help",
        placeholder: "settings.field.cache.watermarkLow.placeholder",
      },
      {
        name: "watermark_high",
        label: "settings.field.cache.watermarkHigh.label",
        type: "number",
        tooltip: "settings.field.cache.watermarkHigh.help",
        placeholder: "settings.field.cache.watermarkHigh.placeholder",
      },
      comment,
    ],
  },
  {
    id: "compression",
    label: "settings.configurations.compression",
    fields: [
      {
        name: "extensions",
        label: "settings.field.compression.extensions.label",
        type: "csv",
        tooltip: "settings.field.compression.extensions.help",
        placeholder: "settings.field.compression.extensions.placeholder",
        check: (
          v,
        ) => (v.split(",").every((e) => /^\.?[A-Za-z0-9_+-]+$/.test(e))
          ? ""
          : "settings.validation.extensions"),
      },
      {
        name: "mime_types",
        label: "settings.field.compression.mimeTypes.label",
        type: "csv",
        tooltip: "settings.field.compression.mimeTypes.help",
        placeholder: "settings.field.compression.mimeTypes.placeholder",
        check: (
          v,
        ) => (v.split(",").every((m) => /^[a-z0-9.+-]+\/(\*|[a-z0-9.+-]+\*?)$/i.test(m))
          ? ""
          : "settings.validation.mimeTypes"),
      },
    ],
  },
  {
    id: "etcd",
    label: "settings.configurations.etcd",
    fields: [
      {
        name: "endpoints",
        label: "settings.field.etcd.endpoints.label",
        type: "csv",
        required: true,
        tooltip: "settings.field.etcd.endpoints.help",
        placeholder: "settings.field.etcd.endpoints.placeholder",
      },
      {
        name: "path_prefix",
        label: "settings.field.etcd.pathPrefix.label",
        type: "string",
        tooltip: "settings.field.etcd.pathPrefix.help",
        placeholder: "settings.field.etcd.pathPrefix.placeholder",
      },
      {
        name: "coredns_path",
        label: "settings.field.etcd.corednsPath.label",
        type: "string",
        tooltip: "settings.field.etcd.corednsPath.help",
        placeholder: "settings.field.etcd.corednsPath.placeholder",
      },
      {
        name: "client_cert",
        label: "settings.field.etcd.clientCert.label",
        type: "string",
        tooltip: "settings.field.etcd.clientCert.help",
        placeholder: "settings.field.etcd.clientCert.placeholder",
      },
      {
        name: "client_cert_key",
        label: "settings.field.etcd.clientCertKey.label",
        type: "string",
        tooltip: "settings.field.etcd.clientCertKey.help",
        placeholder: "settings.field.etcd.clientCertKey.placeholder",
      },
      comment,
    ],
  },
  {
    id: "identity_openid",
    label: "settings.configurations.identityOpenid",
    fields: [
      {
        name: "config_url",
        label: "settings.field.identityOpenid.configUrl.label",
        type: "string",
        tooltip: "settings.field.identityOpenid.configUrl.help",
        example: "https://identity-provider-url/.well-known/openid-configuration",
        check: urlCheck(),
      },
      {
        name: "client_id",
        label: "settings.field.identityOpenid.clientId.label",
        type: "string",
        tooltip: "settings.field.identityOpenid.clientId.help",
        placeholder: "settings.field.identityOpenid.clientId.placeholder",
      },
      {
        name: "claim_name",
        label: "settings.field.identityOpenid.claimName.label",
        type: "string",
        tooltip: "settings.field.identityOpenid.claimName.help",
        placeholder: "settings.field.identityOpenid.claimName.placeholder",
      },
      {
        name: "claim_prefix",
        label: "settings.field.identityOpenid.claimPrefix.label",
        type: "string",
        tooltip: "settings.field.identityOpenid.claimPrefix.help",
        placeholder: "settings.field.identityOpenid.claimPrefix.placeholder",
      },
    ],
  },
  {
    id: "identity_ldap",
    label: "settings.configurations.identityLdap",
    fields: [
      {
        name: "server_addr",
        label: "settings.field.identityLdap.serverAddr.label",
        type: "string",
        required: true,
        tooltip: "settings.field.identityLdap.serverAddr.help",
        example: "myldapserver.com:636",
        check: hostPortCheck,
      },
      {
        name: "username_format",
        label: "settings.field.identityLdap.usernameFormat.label",
        type: "csv",
        required: true,
        tooltip: "settings.field.identityLdap.usernameFormat.help",
        placeholder: "settings.field.identityLdap.usernameFormat.placeholder",
        // Bind DNs hold commas themselves, so the rule is on the whole value (MinIO separates DNs with ";").
        check: (
          v,
        ) => (v.split(";").every((f) => f.includes("%s")) ? "" : "settings.validation.usernameFormat"),
      },
      {
        name: "username_search_filter",
        label: "settings.field.identityLdap.usernameSearchFilter.label",
        type: "string",
        required: true,
        tooltip: "settings.field.identityLdap.usernameSearchFilter.help",
        placeholder: "settings.field.identityLdap.usernameSearchFilter.placeholder",
        check: (v) => (v.includes("%s") ? "" : "settings.validation.filterPercentS"),
      },
      {
        name: "group_search_filter",
        label: "settings.field.identityLdap.groupSearchFilter.label",
        type: "string",
        required: true,
        tooltip: "settings.field.identityLdap.groupSearchFilter.help",
        placeholder: "settings.field.identityLdap.groupSearchFilter.placeholder",
        check: (v) => (/%[sd]/.test(v) ? "" : "settings.validation.filterPercentSD"),
      },
      {
        name: "username_search_base_dn",
        label: "settings.field.identityLdap.usernameSearchBaseDn.label",
        type: "csv",
        tooltip: "settings.field.identityLdap.usernameSearchBaseDn.help",
        placeholder: "settings.field.identityLdap.usernameSearchBaseDn.placeholder",
      },
      {
        name: "group_name_attribute",
        label: "settings.field.identityLdap.groupNameAttribute.label",
        type: "string",
        tooltip: "settings.field.identityLdap.groupNameAttribute.help",
        placeholder: "settings.field.identityLdap.groupNameAttribute.placeholder",
      },
      {
        name: "sts_expiry",
        label: "settings.field.identityLdap.stsExpiry.label",
        type: "duration",
        default: "1h",
        tooltip: "settings.field.identityLdap.stsExpiry.help",
        placeholder: "settings.field.identityLdap.stsExpiry.placeholder",
        check: durationCheck,
      },
      {
        name: "tls_skip_verify",
        label: "settings.field.identityLdap.tlsSkipVerify.label",
        type: "on|off",
        tooltip: "settings.field.identityLdap.tlsSkipVerify.help",
      },
      {
        name: "server_insecure",
        label: "settings.field.identityLdap.serverInsecure.label",
        type: "on|off",
        tooltip: "settings.field.identityLdap.serverInsecure.help",
      },
      // MinIO's lookup-bind and StartTLS keys, beyond the spec's form: without them a directory could only be
      // used in username-format mode from the console. DN lists are ";"-separated strings (DNs hold commas).
      {
        name: "server_starttls",
        label: "settings.field.identityLdap.serverStarttls.label",
        type: "on|off",
        tooltip: "settings.field.identityLdap.serverStarttls.help",
      },
      {
        name: "lookup_bind_dn",
        label: "settings.field.identityLdap.lookupBindDn.label",
        type: "string",
        tooltip: "settings.field.identityLdap.lookupBindDn.help",
        example: "cn=lookup,ou=services,dc=myldapserver,dc=com",
      },
      {
        name: "lookup_bind_password",
        label: "settings.field.identityLdap.lookupBindPassword.label",
        type: "password",
        tooltip: "settings.field.identityLdap.lookupBindPassword.help",
        placeholder: "settings.field.identityLdap.lookupBindPassword.placeholder",
      },
      {
        name: "user_dn_search_base_dn",
        label: "settings.field.identityLdap.userDnSearchBaseDn.label",
        type: "string",
        tooltip: "settings.field.identityLdap.userDnSearchBaseDn.help",
        example: "ou=people,dc=myldapserver,dc=com",
      },
      {
        name: "user_dn_search_filter",
        label: "settings.field.identityLdap.userDnSearchFilter.label",
        type: "string",
        tooltip: "settings.field.identityLdap.userDnSearchFilter.help",
        example: "(uid=%s)",
        check: (v) => (v.includes("%s") ? "" : "settings.validation.filterPercentS"),
      },
      {
        name: "group_search_base_dn",
        label: "settings.field.identityLdap.groupSearchBaseDn.label",
        type: "string",
        tooltip: "settings.field.identityLdap.groupSearchBaseDn.help",
        example: "ou=groups,dc=myldapserver,dc=com",
      },
      comment,
    ],
  },
  ...(["logger", "audit"] as const).map((kind): ConfigurationDef => ({
    id: `${kind}_webhook`,
    label: kind === "logger"
      ? "settings.configurations.loggerWebhook"
      : "settings.configurations.auditWebhook",
    fields: [
      {
        name: "endpoint",
        label: "settings.field.webhook.endpoint.label",
        type: "string",
        required: true,
        tooltip: kind === "logger"
          ? "settings.field.loggerWebhook.endpoint.help"
          : "settings.field.auditWebhook.endpoint.help",
        placeholder: "settings.field.webhook.endpoint.placeholder",
        check: urlCheck(),
      },
      {
        name: "auth_token",
        label: "settings.field.webhook.authToken.label",
        type: "password",
        required: true,
        tooltip: "settings.field.webhook.authToken.help",
        placeholder: "settings.field.webhook.authToken.placeholder",
      },
    ],
  })),
];

export const configurationDef = (id: string) => CONFIGURATIONS.find((c) => c.id === id);

/** The form definition behind a config subsystem name (`region`, `notify_webhook`, …), if the console has one. */
export function fieldsOf(subsystem: string): FieldDef[] | undefined {
  if (subsystem.startsWith("notify_")) {
    return notificationServiceDef(subsystem.slice("notify_".length))?.fields;
  }
  return configurationDef(subsystem)?.fields;
}
