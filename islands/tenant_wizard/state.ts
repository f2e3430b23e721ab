/**
 * The Create Tenant wizard's state (spec 3 §3 "Wizard state fields", with their defaults). Each page's
 * validity is in rules.ts, the create payload in payload.ts.
 */
import { type LabelRow, randomKey, type SizeUnit } from "../../server/lib/contract/operator_rules.ts";

export interface FileValue {
  name: string;
  value: string;
}
export const NO_FILE: FileValue = { name: "", value: "" };
export interface KeyPairFiles {
  id: number;
  key: FileValue;
  cert: FileValue;
}
export interface CaFile {
  id: number;
  cert: FileValue;
}

/** Key pairs with both files chosen, as the API takes them (`[{crt, key}]`). */
export const completePairs = (pairs: KeyPairFiles[]) =>
  pairs.filter((p) => p.key.value && p.cert.value).map((p) => ({ crt: p.cert.value, key: p.key.value }));

/** A pair with one file chosen but not the other, which cannot be sent. */
export const hasHalfPair = (pairs: KeyPairFiles[]) => pairs.some((p) => !p.key.value !== !p.cert.value);

export type IdpKind = "builtin" | "openid" | "ad";
export type AffinityKind = "none" | "default" | "nodeSelector";
export type EncryptionKind = "vault" | "aws" | "gemalto" | "gcp";

export interface WizardState {
  advanced: boolean;
  name: { tenantName: string; namespace: string; storageClass: string };
  /** From the namespace check: classes with their remaining quota; error or "checking". */
  namespaceCheck: {
    status: "idle" | "checking" | "ok" | "error";
    error: string;
    classes: { name: string; remaining: number }[];
    canCreateNamespace: boolean;
  };
  configure: {
    customImage: boolean;
    imageName: string;
    customRegistry: boolean;
    registry: string;
    registryUsername: string;
    registryPassword: string;
    exposeMinio: boolean;
    exposeConsole: boolean;
    logSearchCustom: boolean;
    logSearchClass: string;
    logSearchSize: string;
    prometheusCustom: boolean;
    prometheusClass: string;
    prometheusSize: string;
    logSearchImage: string;
    kesImage: string;
    postgresImage: string;
    postgresInitImage: string;
    prometheusImage: string;
    prometheusSidecarImage: string;
    prometheusInitImage: string;
  };
  affinity: { kind: AffinityKind; withPodAntiAffinity: boolean; labels: LabelRow[] };
  idp: {
    kind: IdpKind;
    keys: { accessKey: string; secretKey: string }[];
    openid: {
      url: string;
      configurationUrl: string;
      clientId: string;
      secretId: string;
      claimName: string;
      callbackUrl: string;
      scopes: string;
    };
    ad: {
      url: string;
      skipTls: boolean;
      serverInsecure: boolean;
      startTls: boolean;
      usernameFormat: string;
      usernameSearchFilter: string;
      groupSearchBaseDn: string;
      groupSearchFilter: string;
      groupNameAttribute: string;
      userDns: string[];
      lookupBindDn: string;
      lookupBindPassword: string;
      userDnSearchBaseDn: string;
      userDnSearchFilter: string;
    };
  };
  security: {
    enableTLS: boolean;
    autoCert: boolean;
    customCerts: boolean;
    minioCerts: KeyPairFiles[];
    caCerts: CaFile[];
  };
  encryption: {
    enabled: boolean;
    kind: EncryptionKind;
    customCerts: boolean;
    server: { key: FileValue; cert: FileValue };
    client: { key: FileValue; cert: FileValue };
    vault: {
      endpoint: string;
      engine: string;
      namespace: string;
      prefix: string;
      approleEngine: string;
      approleId: string;
      approleSecret: string;
      retry: string;
      ping: string;
      key: FileValue;
      cert: FileValue;
      ca: FileValue;
    };
    aws: {
      endpoint: string;
      region: string;
      kmsKey: string;
      accessKey: string;
      secretKey: string;
      token: string;
    };
    gemalto: { endpoint: string; token: string; domain: string; retry: string; ca: FileValue };
    gcp: {
      projectId: string;
      endpoint: string;
      clientEmail: string;
      clientId: string;
      privateKeyId: string;
      privateKey: string;
    };
  };
  size: {
    nodes: string;
    drivesPerServer: string;
    volumeSize: string;
    sizeFactor: SizeUnit;
    memoryNode: string;
    ecParity: string;
  };
}

export function initialState(): WizardState {
  return {
    advanced: false,
    name: { tenantName: "", namespace: "", storageClass: "" },
    namespaceCheck: { status: "idle", error: "", classes: [], canCreateNamespace: false },
    configure: {
      customImage: false,
      imageName: "",
      customRegistry: false,
      registry: "",
      registryUsername: "",
      registryPassword: "",
      exposeMinio: true,
      exposeConsole: true,
      logSearchCustom: false,
      logSearchClass: "",
      logSearchSize: "5",
      prometheusCustom: false,
      prometheusClass: "",
      prometheusSize: "5",
      logSearchImage: "",
      kesImage: "",
      postgresImage: "",
      postgresInitImage: "",
      prometheusImage: "",
      prometheusSidecarImage: "",
      prometheusInitImage: "",
    },
    affinity: { kind: "default", withPodAntiAffinity: true, labels: [{ key: "", value: "" }] },
    idp: {
      kind: "builtin",
      keys: [{ accessKey: randomKey(16), secretKey: randomKey(32) }],
      openid: {
        url: "",
        configurationUrl: "",
        clientId: "",
        secretId: "",
        claimName: "",
        callbackUrl: "",
        scopes: "",
      },
      ad: {
        url: "",
        skipTls: false,
        serverInsecure: false,
        startTls: false,
        usernameFormat: "",
        usernameSearchFilter: "",
        groupSearchBaseDn: "",
        groupSearchFilter: "",
        groupNameAttribute: "",
        userDns: [""],
        lookupBindDn: "",
        lookupBindPassword: "",
        userDnSearchBaseDn: "",
        userDnSearchFilter: "",
      },
    },
    security: {
      enableTLS: true,
      autoCert: true,
      customCerts: false,
      minioCerts: [{ id: 1, key: NO_FILE, cert: NO_FILE }],
      caCerts: [{ id: 1, cert: NO_FILE }],
    },
    encryption: {
      enabled: false,
      kind: "vault",
      customCerts: false,
      server: { key: NO_FILE, cert: NO_FILE },
      client: { key: NO_FILE, cert: NO_FILE },
      vault: {
        endpoint: "",
        engine: "",
        namespace: "",
        prefix: "",
        approleEngine: "",
        approleId: "",
        approleSecret: "",
        retry: "0",
        ping: "0",
        key: NO_FILE,
        cert: NO_FILE,
        ca: NO_FILE,
      },
      aws: { endpoint: "", region: "", kmsKey: "", accessKey: "", secretKey: "", token: "" },
      gemalto: { endpoint: "", token: "", domain: "", retry: "0", ca: NO_FILE },
      gcp: { projectId: "", endpoint: "", clientEmail: "", clientId: "", privateKeyId: "", privateKey: "" },
    },
    size: {
      nodes: "4",
      drivesPerServer: "1",
      volumeSize: "100",
      sizeFactor: "Gi",
      memoryNode: "2",
      ecParity: "",
    },
  };
}
