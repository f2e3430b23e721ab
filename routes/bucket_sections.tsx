/**
 * The sections of a bucket's page (spec 2 Bucket detail), one row each: its id (the sub-route), the label in the
 * left menu, whether it exists only in distributed mode, the permission without which its menu entry is
 * disabled, how its data is read, and the island that shows it. The page (routes/buckets.tsx) only walks this
 * table.
 */
import type { Context } from "hono";
import type { ComponentType, ReactNode } from "react";
import BucketAccess from "../islands/BucketAccess.tsx";
import BucketEvents from "../islands/BucketEvents.tsx";
import BucketLifecycle from "../islands/BucketLifecycle.tsx";
import BucketReplication from "../islands/BucketReplication.tsx";
import BucketSummary from "../islands/BucketSummary.tsx";
import type { IslandName } from "../islands/registry.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import type { ApiError } from "../server/console/http/errors.ts";
import { Island } from "../server/console/render/island.tsx";
import {
  listAccessRules,
  policiesForBucket,
  usersForBucket,
} from "../server/console/services/bucket_access.ts";
import { listEvents, notificationArns } from "../server/console/services/bucket_events.ts";
import { listLifecycle } from "../server/console/services/bucket_lifecycle.ts";
import {
  listReplicationRules,
  replicationStatusIfAllowed,
} from "../server/console/services/bucket_replication.ts";
import { bucketSummary } from "../server/console/services/bucket_summary.ts";
import { clientFor } from "../server/console/session/clients.ts";
import { listTierViews } from "../server/console/services/settings.ts";
import { isPathAllowed } from "../server/console/session/pages.ts";
import { missingCapability, plainVersioning } from "../server/console/session/capabilities.ts";
import type { ServerCapabilities } from "../server/lib/contract/capabilities.ts";
import type { SessionData } from "../server/console/session/token.ts";
import type { BucketMeta } from "../server/console/services/buckets.ts";
import { loadAll, viewBanner } from "./page_data.ts";
import { pagesOf } from "./page_context.tsx";
import { type MessageKey, t } from "../islands/lib/i18n/t.ts";

/** What a section's loader gets; `meta` resolves to null when the bucket is missing or denied. */
export interface SectionContext {
  deps: AppDeps;
  c: Context<AppEnv>;
  session: SessionData;
  bucket: string;
  base: string;
  meta: Promise<BucketMeta | null>;
}

/** A row of the table, with its loader and island joined into one render step. */
export interface BucketSection {
  id: string;
  /** The label's catalogue key (the page says it in the visitor's language). */
  label: MessageKey;
  distributedOnly: boolean;
  /** The action the account needs for the section's menu entry to be enabled (spec 2 left menu). */
  permission?: string;
  render(ctx: SectionContext): Promise<{ body: ReactNode; error?: ApiError }>;
}

/** Builds a row; the loader's props and the island's are checked against each other here. */
function section<P extends object>(row: {
  id: string;
  label: MessageKey;
  distributedOnly?: boolean;
  permission?: string;
  load: (ctx: SectionContext) => Promise<{ props: P; error?: ApiError }>;
  island: [name: IslandName, component: ComponentType<P>];
}): BucketSection {
  const [name, component] = row.island;
  return {
    id: row.id,
    label: row.label,
    distributedOnly: row.distributedOnly ?? false,
    permission: row.permission,
    render: async (ctx) => {
      const { props, error } = await row.load(ctx);
      return { error, body: <Island name={name} component={component} props={props} /> };
    },
  };
}

type ListOf<F extends (...args: never[]) => unknown, K extends keyof Awaited<ReturnType<F>>> = Awaited<
  ReturnType<F>
>[K];

export const SECTIONS: BucketSection[] = [
  section({
    id: "summary",
    label: "buckets.section.summary",
    // The bucket's detail comes from the header's read; the Summary's own parts are read meanwhile.
    load: async ({ deps, c, session, bucket, meta }) => {
      const caps = c.get("capabilities");
      const view = await bucketSummary(clientFor(deps, session), bucket, {
        distributed: session.distributed,
        meta: meta.then((m) => m ?? Promise.reject(new Error("the bucket could not be read"))),
        plainVersioning: !!caps && plainVersioning(caps),
      });
      return {
        props: { bucket, initial: view },
        error: viewBanner(view.failures),
      };
    },
    island: ["BucketSummary", BucketSummary],
  }),
  section({
    id: "events",
    label: "buckets.section.events",
    load: async ({ deps, session, bucket }) => {
      const { data, error, failed } = await loadAll<
        { events: ListOf<typeof listEvents, "events">; arns: string[] }
      >(deps, session, {
        events: [
          async (client) => (await listEvents(client, bucket)).events,
          [],
          t("buckets.section.events"),
        ],
        arns: [(client) => notificationArns(client), [], t("buckets.part.notificationTargets")],
      });
      return { error, props: { bucket, ...data, unavailable: failed.events } };
    },
    island: ["BucketEvents", BucketEvents],
  }),
  section({
    id: "replication",
    label: "buckets.section.replication",
    distributedOnly: true,
    permission: "s3:GetReplicationConfiguration",
    load: async ({ deps, session, bucket, meta }) => {
      const { data, error, failed } = await loadAll<
        {
          rules: ListOf<typeof listReplicationRules, "rules">;
          status: Awaited<ReturnType<typeof replicationStatusIfAllowed>>;
        }
      >(deps, session, {
        rules: [
          async (client) => (await listReplicationRules(client, bucket)).rules,
          [],
          t("buckets.part.replicationRules"),
        ],
        status: [
          (client) => replicationStatusIfAllowed(client, bucket),
          null,
          t("buckets.part.replicationStatus"),
        ],
      });
      const canAdd = (await meta)?.can("s3:PutReplicationConfiguration") ?? false;
      return {
        error,
        props: { bucket, rules: data.rules, status: data.status, unavailable: failed.rules, canAdd },
      };
    },
    island: ["BucketReplication", BucketReplication],
  }),
  section({
    id: "lifecycle",
    label: "buckets.section.lifecycle",
    distributedOnly: true,
    load: async ({ deps, session, bucket }) => {
      const { data, error, failed } = await loadAll<
        { rules: ListOf<typeof listLifecycle, "lifecycle">; tiers: string[] }
      >(deps, session, {
        rules: [
          async (client) => (await listLifecycle(client, bucket)).lifecycle,
          [],
          t("buckets.part.lifecycleRules"),
        ],
        // A failed tiers read is ignored (spec 2 §8).
        tiers: [
          async (client) =>
            (await listTierViews(client).catch(() => ({ items: [] }))).items.map((t) =>
              (t[t.type] as { name: string }).name
            ),
          [],
          t("buckets.part.tiers"),
        ],
      });
      return { error, props: { bucket, ...data, unavailable: failed.rules } };
    },
    island: ["BucketLifecycle", BucketLifecycle],
  }),
  section({
    id: "access",
    label: "buckets.section.access",
    load: async ({ deps, c, session, bucket, base }) => {
      // The Users tab shows only to a session that may see /users (spec 2 Access Audit).
      const showUsers = isPathAllowed(pagesOf(c), "/users");
      const { data, error, failed } = await loadAll<{ policies: string[]; users: string[] }>(deps, session, {
        policies: [
          async (client) => (await policiesForBucket(client, bucket)).policies.map((p) => p.name),
          [],
          t("buckets.part.policies"),
        ],
        users: [
          async (client) => (showUsers ? await usersForBucket(client, bucket) : []),
          [],
          t("buckets.part.users"),
        ],
      });
      return {
        error,
        props: { view: "audit" as const, bucket, ...data, unavailable: failed, showUsers, base },
      };
    },
    island: ["BucketAccess", BucketAccess],
  }),
  section({
    id: "prefix",
    label: "buckets.section.prefix",
    load: async ({ deps, session, bucket }) => {
      const { data, error, failed } = await loadAll<
        { rules: ListOf<typeof listAccessRules, "accessRules"> }
      >(deps, session, {
        rules: [
          async (client) => (await listAccessRules(client, bucket)).accessRules,
          [],
          t("buckets.section.prefix"),
        ],
      });
      return {
        error,
        props: { view: "rules" as const, bucket, rules: data.rules, unavailable: failed.rules },
      };
    },
    island: ["BucketAccess", BucketAccess],
  }),
];

/**
 * The sections a session has: the distributed-only ones exist only in distributed mode (spec 2 sub-routes),
 * except Lifecycle on a plain S3 server that implements it (distributed mode is a MinIO notion); sections
 * built on MinIO's admin API are left out on a server without it (server/console/session/capabilities.ts).
 */
export const sectionsFor = (distributed: boolean, caps?: ServerCapabilities) =>
  SECTIONS.filter((s) => {
    const plainLifecycle = s.id === "lifecycle" && caps?.adminApi === "no" && caps.s3.lifecycle === "yes";
    if (!distributed && s.distributedOnly && !plainLifecycle) return false;
    return !caps || !missingCapability(`/buckets/_/${s.id}`, caps);
  });
