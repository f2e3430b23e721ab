/**
 * The identity side of the embedded server in one call: identity store, authority, admin API v3 handler,
 * STS handler and the server facts the S3 front validates configurations against.
 */
import { type AdminContext, adminFail, type LiveServices } from "./admin/context.ts";
import { ServerConfig } from "./config/server_config.ts";
import type {
  AdminHandler,
  ConfigTree,
  IdentityAuthority,
  ServerFacts,
  StoreFacts,
  StsHandler,
} from "./core/contracts.ts";
import { compressionRule } from "./fs/compression.ts";
import { openIdSettings } from "./iam/openid.ts";
import { ldapSettings } from "../lib/ldap/settings.ts";
import { checkLdapSessions } from "./iam/ldap_sessions.ts";
import { createStsHandler } from "./sts.ts";
import { Authority, type RootCredentials } from "./iam/authority.ts";
import { IamStore } from "./iam/store.ts";
import { adminErrorResponse, StoreError } from "./core/errors.ts";
import { TierStore } from "./tiers/store.ts";
import { readTargets } from "./replication/targets.ts";

export interface Identity {
  authority: IdentityAuthority & Authority;
  admin: AdminHandler;
  sts: StsHandler;
  facts: ServerFacts;
  /** The server configuration (audit and logger webhook targets are read from it as it changes). */
  config: ServerConfig;
  close(): Promise<void>;
}

export async function createIdentity(options: {
  dataDir: string;
  root: RootCredentials;
  store: StoreFacts;
  now?: () => number;
  fetch?: typeof fetch;
  reportedBackend?: "erasure" | "fs";
  /** How often directory sessions are checked against the directory (iam/ldap_sessions.ts). */
  ldapCheckMs?: number;
  /** Certificates trusted besides the system's for outgoing TLS (the certs dir): the directory's too. */
  caCerts?: readonly string[];
  /** Puts a configuration into effect: called with the stored configuration at start and on every restart. */
  applyConfig?: (tree: ConfigTree) => Promise<void>;
  /** ServerInfo `services.notifications`: each target's real connection check. */
  notificationStatus?: () => Promise<Record<string, Record<string, { status: string }>[]>[]>;
  /** Streams, log history and heal sequences the live admin calls serve. */
  live: LiveServices;
  /** The tier store, when the caller already opened it (the lifecycle scanner shares it). */
  tiers?: TierStore;
}): Promise<Identity> {
  const now = options.now ?? Date.now;
  const iam = await IamStore.open(options.dataDir, now());
  const config = await ServerConfig.open(options.dataDir);
  const tiers = options.tiers ?? await TierStore.open(options.dataDir);
  const applyConfig = options.applyConfig ?? (() => Promise.resolve());
  await applyConfig(config.applied);
  const authority = new Authority(iam, options.root, now);
  const startedAt = now();
  const directory = () => ldapSettings(config.applied.identity_ldap?._, options.caCerts ?? []);
  const pruner = setInterval(() => iam.pruneSessions(now()).catch(() => {}), 60_000);
  // One check at a time: a slow directory must not pile checks up.
  let checking = false;
  const ldapChecker = setInterval(() => {
    if (checking) return;
    checking = true;
    checkLdapSessions(iam, directory()).catch(() => {})
      .finally(() => checking = false);
  }, options.ldapCheckMs ?? 60_000);

  const admin: AdminHandler = async (req) => {
    try {
      if (!req.credential) throw adminFail("AccessDenied", "Access Denied.", 403);
      const credential = req.credential;
      const ctx: AdminContext = {
        ...req,
        credential,
        query: req.url.searchParams,
        iam,
        authority,
        store: options.store,
        config,
        tiers,
        startedAt,
        reportedBackend: options.reportedBackend ?? "erasure",
        now,
        fetch: options.fetch ?? globalThis.fetch,
        live: options.live,
        ldap: directory,
        can: (action, bucket = "") =>
          authority.isAllowed(credential, action, bucket, "", { "aws:SourceIp": [req.sourceIp] }),
        restart: async () => {
          config.applyStored();
          await applyConfig(config.applied);
        },
        notificationStatus: options.notificationStatus ?? (() => Promise.resolve([])),
      };
      // The admin API's handlers load with its first call, not with the thread (issue 25); by URL, as Deno
      // reads a literal import() into the graph it loads before the thread runs.
      const router = new URL("./admin/router.ts", import.meta.url).href;
      return await (await import(router) as typeof import("./admin/router.ts")).routeAdmin(ctx);
    } catch (error) {
      if (error instanceof StoreError) return adminErrorResponse(error, req.url, req.requestId);
      throw error;
    }
  };

  return {
    authority,
    admin,
    sts: createStsHandler(iam, now, {
      openid: () => openIdSettings(config.applied.identity_openid?._),
      ldap: directory,
      fetch: options.fetch ?? globalThis.fetch,
    }),
    facts: serverFacts(config, tiers, options.store),
    config,
    close: () => {
      clearInterval(pruner);
      clearInterval(ldapChecker);
      return Promise.resolve();
    },
  };
}

/** What the S3 front validates bucket configurations against, read from the configuration as it changes. */
function serverFacts(config: ServerConfig, tiers: TierStore, store: StoreFacts): ServerFacts {
  return {
    notificationArns: () => config.notificationArns(),
    tierNames: () => tiers.names(),
    tierType: (name) => tiers.tiers.find((t) => t.Name === name)?.Type,
    remoteTargetArns: async (bucket) => (await readTargets({ store }, bucket)).map((t) => t.arn),
    bucketQuota: async (bucket) => {
      const text = await store.getBucketDocument(bucket, "quota.json");
      return text ? Number(JSON.parse(text).quota ?? 0) : 0;
    },
    region: () => config.region(),
    compression: () => compressionRule(config.applied.compression?._),
    corsAllowOrigins: () => config.corsAllowOrigins(),
  };
}
