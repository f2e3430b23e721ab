/**
 * The eight configurations of Settings › Configurations (spec 2 §2, §3) with their fields, and which form a
 * config subsystem name has (configurations here, notification targets in settings_targets.ts).
 */
import { comment, durationCheck, type FieldDef, hostPortCheck, urlCheck } from "./settings_fields.ts";
import { notificationServiceDef } from "./settings_targets.ts";

export interface ConfigurationDef {
  id: string;
  label: string;
  fields: FieldDef[];
}

export const CONFIGURATIONS: ConfigurationDef[] = [
  {
    id: "region",
    label: "Region",
    fields: [
      {
        name: "name",
        label: "Server Location",
        type: "string",
        required: true,
        tooltip: 'Name of the location of the server e.g. "us-west-rack2"',
        placeholder: "e.g. us-west-rack-2",
        check: (
          v,
        ) => (/^[a-zA-Z][a-zA-Z0-9-_]+$/.test(v)
          ? ""
          : "Please start with a letter and use only letters, digits, dashes and underscores"),
      },
      comment,
    ],
  },
  {
    id: "cache",
    label: "Cache",
    fields: [
      {
        name: "drives",
        label: "Drives",
        type: "csv",
        required: true,
        tooltip: 'Mountpoints e.g. "/optane1" or "/optane2"',
        placeholder: "Enter Mount Point",
      },
      {
        name: "expiry",
        label: "Expiry",
        type: "number",
        tooltip: 'Cache expiry duration in days e.g. "90"',
        placeholder: "Enter Number of Days",
      },
      {
        name: "quota",
        label: "Quota",
        type: "number",
        tooltip: 'Limit cache drive usage in percentage e.g. "90"',
        placeholder: "Enter in %",
      },
      {
        name: "exclude",
        label: "Exclude",
        type: "csv",
        tooltip: 'Wildcard exclusion patterns e.g. "bucket/*.tmp" or "*.exe"',
        placeholder: "Enter Wildcard Exclusion Patterns",
      },
      {
        name: "after",
        label: "After",
        type: "number",
        tooltip: "Minimum number of access before caching an object",
        placeholder: "Enter Number of Attempts",
      },
      {
        name: "watermark_low",
        label: "Watermark Low",
        type: "number",
        tooltip: "Watermark Low",
        placeholder: "Enter Watermark Low",
      },
      {
        name: "watermark_high",
        label: "Watermark High",
        type: "number",
        tooltip: "Watermark High",
        placeholder: "Enter Watermark High",
      },
      comment,
    ],
  },
  {
    id: "compression",
    label: "Compression",
    fields: [
      {
        name: "extensions",
        label: "Extensions",
        type: "csv",
        tooltip: 'Extensions to compress e.g. ".txt", ".log" or ".csv", with or without the period',
        placeholder: "Enter an Extension",
        check: (
          v,
        ) => (v.split(",").every((e) => /^\.?[A-Za-z0-9_+-]+$/.test(e))
          ? ""
          : "Please enter extensions such as .txt or log"),
      },
      {
        name: "mime_types",
        label: "Mime Types",
        type: "csv",
        tooltip: 'Mime types e.g. "text/*", "application/json" or "application/xml"',
        placeholder: "Enter a Mime Type",
        check: (
          v,
        ) => (v.split(",").every((m) => /^[a-z0-9.+-]+\/(\*|[a-z0-9.+-]+\*?)$/i.test(m))
          ? ""
          : "Please enter MIME types such as text/* or application/json"),
      },
    ],
  },
  {
    id: "etcd",
    label: "Etcd",
    fields: [
      {
        name: "endpoints",
        label: "Endpoints",
        type: "csv",
        required: true,
        tooltip: 'List of etcd endpoints e.g. "http://localhost:2379"',
        placeholder: "Enter Endpoint",
      },
      {
        name: "path_prefix",
        label: "Path Prefix",
        type: "string",
        tooltip: 'Namespace prefix to isolate tenants e.g. "customer1/"',
        placeholder: "Enter Path Prefix",
      },
      {
        name: "coredns_path",
        label: "Coredns Path",
        type: "string",
        tooltip: 'Shared bucket DNS records, default is "/skydns"',
        placeholder: "Enter Coredns Path",
      },
      {
        name: "client_cert",
        label: "Client Cert",
        type: "string",
        tooltip: "Client cert for mTLS authentication",
        placeholder: "Enter Client Cert",
      },
      {
        name: "client_cert_key",
        label: "Client Cert Key",
        type: "string",
        tooltip: "Client cert key for mTLS authentication",
        placeholder: "Enter Client Cert Key",
      },
      comment,
    ],
  },
  {
    id: "identity_openid",
    label: "Identity Openid",
    fields: [
      {
        name: "config_url",
        label: "Config URL",
        type: "string",
        tooltip: "Config URL for identity provider configuration",
        placeholder: "https://identity-provider-url/.well-known/openid-configuration",
        check: urlCheck(),
      },
      {
        name: "client_id",
        label: "Client ID",
        type: "string",
        tooltip: "The client identifier of the authenticating party at the identity provider",
        placeholder: "Enter Client ID",
      },
      {
        name: "claim_name",
        label: "Claim Name",
        type: "string",
        tooltip: "Claim from which MinIO will read the policy or role to use",
        placeholder: "Enter Claim Name",
      },
      {
        name: "claim_prefix",
        label: "Claim Prefix",
        type: "string",
        tooltip: "Claim Prefix",
        placeholder: "Enter Claim Prefix",
      },
    ],
  },
  {
    id: "identity_ldap",
    label: "Identity LDAP",
    fields: [
      {
        name: "server_addr",
        label: "Server Addr",
        type: "string",
        required: true,
        tooltip: 'AD/LDAP server address e.g. "myldapserver.com:636"',
        placeholder: "myldapserver.com:636",
        check: hostPortCheck,
      },
      {
        name: "username_format",
        label: "Username Format",
        type: "csv",
        required: true,
        tooltip: 'List of username bind DNs e.g. "uid=%s,cn=accounts,dc=myldapserver,dc=com"',
        placeholder: "Enter Username Format",
        // Bind DNs hold commas themselves, so the rule is on the whole value (MinIO separates DNs with ";").
        check: (
          v,
        ) => (v.split(";").every((f) => f.includes("%s")) ? "" : "Every username format must contain %s"),
      },
      {
        name: "username_search_filter",
        label: "Username Search Filter",
        type: "string",
        required: true,
        tooltip: 'User search filter, for example "(cn=%s)" or "(sAMAccountName=%s)" or "(uid=%s)"',
        placeholder: "Enter Username Search Filter",
        check: (v) => (v.includes("%s") ? "" : "The filter must contain %s"),
      },
      {
        name: "group_search_filter",
        label: "Group Search Filter",
        type: "string",
        required: true,
        tooltip: 'Search filter for groups e.g. "(&(objectclass=groupOfNames)(memberUid=%s))"',
        placeholder: "Enter Group Search Filter",
        check: (v) => (/%[sd]/.test(v) ? "" : "The filter must contain %s or %d"),
      },
      {
        name: "username_search_base_dn",
        label: "Username Search Base DN",
        type: "csv",
        tooltip: 'List of username search DNs e.g. "dc=myldapserver,dc=com"',
        placeholder: "Enter Username Search Base DN",
      },
      {
        name: "group_name_attribute",
        label: "Group Name Attribute",
        type: "string",
        tooltip: 'Search attribute for group name e.g. "cn"',
        placeholder: "Enter Group Name Attribute",
      },
      {
        name: "sts_expiry",
        label: "STS Expiry",
        type: "duration",
        default: "1h",
        tooltip: 'Temporary credentials validity duration in s,m,h,d. Default is "1h"',
        placeholder: "Enter STS Expiry",
        check: durationCheck,
      },
      {
        name: "tls_skip_verify",
        label: "TLS Skip Verify",
        type: "on|off",
        tooltip: 'Trust server TLS without verification, defaults to "off" (verify)',
      },
      {
        name: "server_insecure",
        label: "Server Insecure",
        type: "on|off",
        tooltip: 'Allow plain text connection to AD/LDAP server, defaults to "off"',
      },
      // MinIO's lookup-bind and StartTLS keys, beyond the spec's form: without them a directory could only be
      // used in username-format mode from the console. DN lists are ";"-separated strings (DNs hold commas).
      {
        name: "server_starttls",
        label: "Server StartTLS",
        type: "on|off",
        tooltip: 'Use StartTLS connection to AD/LDAP server, defaults to "off"',
      },
      {
        name: "lookup_bind_dn",
        label: "Lookup Bind DN",
        type: "string",
        tooltip: "DN of a read-only service account that looks users and groups up (lookup-bind mode)",
        placeholder: "cn=lookup,ou=services,dc=myldapserver,dc=com",
      },
      {
        name: "lookup_bind_password",
        label: "Lookup Bind Password",
        type: "password",
        tooltip: "Password of the lookup bind account",
        placeholder: "Enter Lookup Bind Password",
      },
      {
        name: "user_dn_search_base_dn",
        label: "User DN Search Base DN",
        type: "string",
        tooltip:
          '";" separated list of bases to look users up under, e.g. "ou=people,dc=myldapserver,dc=com"',
        placeholder: "ou=people,dc=myldapserver,dc=com",
      },
      {
        name: "user_dn_search_filter",
        label: "User DN Search Filter",
        type: "string",
        tooltip: 'Filter that finds a user\'s DN, e.g. "(uid=%s)" or "(sAMAccountName=%s)"',
        placeholder: "(uid=%s)",
        check: (v) => (v.includes("%s") ? "" : "The filter must contain %s"),
      },
      {
        name: "group_search_base_dn",
        label: "Group Search Base DN",
        type: "string",
        tooltip:
          '";" separated list of bases to search groups under, e.g. "ou=groups,dc=myldapserver,dc=com"',
        placeholder: "ou=groups,dc=myldapserver,dc=com",
      },
      comment,
    ],
  },
  ...(["logger", "audit"] as const).map((kind): ConfigurationDef => ({
    id: `${kind}_webhook`,
    label: `${kind === "logger" ? "Logger" : "Audit"} Webhook`,
    fields: [
      {
        name: "endpoint",
        label: "Endpoint",
        type: "string",
        required: true,
        tooltip: `HTTP(s) endpoint e.g. "http://localhost:8080/minio/logs/${
          kind === "logger" ? "server" : "audit"
        }"`,
        placeholder: "Enter Endpoint",
        check: urlCheck(),
      },
      {
        name: "auth_token",
        label: "Auth Token",
        type: "password",
        required: true,
        tooltip: "Authorization token for endpoint",
        placeholder: "Enter Auth Token",
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
