/**
 * The Buckets pages (spec 2): the list, and a bucket's detail with its left menu and sub-routes summary,
 * events, replication, lifecycle (those two only in distributed mode), access (audit) and prefix (rules).
 * Each renders with its data; the interactive part of each is one island.
 */
import { type Context, Hono } from "hono";
import type { ReactNode } from "react";
import BucketAccess from "../islands/BucketAccess.tsx";
import BucketAccessLabel from "../islands/BucketAccessLabel.tsx";
import BucketEvents from "../islands/BucketEvents.tsx";
import BucketHeaderActions from "../islands/BucketHeaderActions.tsx";
import BucketLifecycle from "../islands/BucketLifecycle.tsx";
import BucketReplication from "../islands/BucketReplication.tsx";
import BucketsList from "../islands/BucketsList.tsx";
import BucketSummary, { type SummaryState } from "../islands/BucketSummary.tsx";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { type ApiError, toApiError } from "../server/console/http/errors.ts";
import { Island } from "../server/console/render/island.tsx";
import type { S3Client } from "../server/lib/s3/client.ts";
import {
  listAccessRules,
  policiesForBucket,
  usersForBucket,
} from "../server/console/services/bucket_access.ts";
import { listEvents, notificationArns } from "../server/console/services/bucket_events.ts";
import { listLifecycle } from "../server/console/services/bucket_lifecycle.ts";
import { listReplicationRules, replicationStatus } from "../server/console/services/bucket_replication.ts";
import * as settings from "../server/console/services/bucket_settings.ts";
import type { BucketSummary as BucketInfo, PermissionList } from "../server/lib/contract/buckets.ts";
import {
  accountView,
  bucketInfo,
  bucketListRefusal,
  evaluatePermissions,
} from "../server/console/services/buckets.ts";
import { listTierViews } from "../server/console/services/settings.ts";
import { isPathAllowed } from "../server/console/session/pages.ts";
import { loadAll } from "./page_data.ts";
import { PageHeader, UnavailableNote } from "./layout/Shell.tsx";
import { pagesOf, renderInShell } from "./page_context.tsx";

/** The replication status, or none when denied: the rules, read with the same permission, say so already. */
const quietReplicationStatus = (client: S3Client, bucket: string) =>
  replicationStatus(client, bucket).catch((e) => (toApiError(e).status === 403 ? null : Promise.reject(e)));

const SECTIONS = [
  { id: "summary", label: "Summary" },
  { id: "events", label: "Events" },
  { id: "replication", label: "Replication", distributedOnly: true },
  { id: "lifecycle", label: "Lifecycle", distributedOnly: true },
  { id: "access", label: "Access Audit" },
  { id: "prefix", label: "Access Rules" },
] as const;
type SectionId = typeof SECTIONS[number]["id"];

function BucketLayout(
  props: {
    base: string;
    bucket: string;
    access: string;
    section: SectionId;
    distributed: boolean;
    canReadReplication: boolean;
    children: ReactNode;
  },
) {
  const href = (section: string) => `${props.base}buckets/${encodeURIComponent(props.bucket)}/${section}`;
  return (
    <>
      <nav className="breadcrumbs text-sm mb-2" aria-label="Breadcrumb">
        <ul>
          <li>
            <a href={`${props.base}buckets`}>Buckets</a>
          </li>
          <li className="wrap-anywhere">{props.bucket}</li>
        </ul>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-3 mb-6">
        <div>
          <h1 className="text-2xl font-bold wrap-anywhere">{props.bucket}</h1>
          <Island name="BucketAccessLabel" component={BucketAccessLabel} props={{ access: props.access }} />
        </div>
        <div className="flex gap-2">
          <Island
            name="BucketHeaderActions"
            component={BucketHeaderActions}
            props={{ bucket: props.bucket, base: props.base }}
          />
          <a className="btn btn-sm" href={href(props.section)}>Refresh</a>
        </div>
      </header>
      {/* Side by side from 1024 px; narrower, the sections run in a row above the content, which keeps the width. */}
      <div className="flex flex-col lg:flex-row gap-4 lg:gap-6">
        <ul
          className="deck-section-menu menu menu-horizontal lg:menu-vertical bg-base-100 rounded-box w-full lg:w-52 shrink-0"
          aria-label="Bucket sections"
        >
          {SECTIONS.filter((s) => !("distributedOnly" in s) || props.distributed).map((s) => (
            <li key={s.id}>
              {s.id === "replication" && !props.canReadReplication
                ? <span className="menu-disabled" aria-disabled="true">{s.label}</span>
                : (
                  <a href={href(s.id)} aria-current={s.id === props.section ? "page" : undefined}>
                    {s.label}
                  </a>
                )}
            </li>
          ))}
        </ul>
        <section className="flex-1 min-w-0">{props.children}</section>
      </div>
    </>
  );
}

export function bucketPages(deps: AppDeps) {
  const base = deps.render.href("/");

  async function section(c: Context<AppEnv>, bucket: string, id: SectionId) {
    const session = c.get("session")!;
    // One account-info call gives the bucket (size, date) and the policy the permission checks need.
    const loadingMeta = loadAll<{ bucket: { info: BucketInfo; perms: PermissionList } | null }>(
      deps,
      session,
      {
        bucket: [
          async (client) => {
            const pending = accountView(client);
            const [view, info] = await Promise.all([pending, bucketInfo(client, bucket, pending)]);
            const perms = evaluatePermissions(view.policy, {
              actions: [{ id: "get", action: "s3:GetReplicationConfiguration", bucket_name: bucket }, {
                id: "put",
                action: "s3:PutReplicationConfiguration",
                bucket_name: bucket,
              }],
            });
            return { info, perms };
          },
          null,
          "Bucket",
        ],
      },
    );
    // The section's own data is read at the same time (one wait less under load); it is dropped when the
    // bucket turns out missing or denied.
    const canPut = (perms: PermissionList) => perms.permissions.some((p) => p.id === "put" && p.can);
    const loadingBody = sectionBody(
      c,
      bucket,
      id,
      loadingMeta.then((m) =>
        m.data.bucket && { info: m.data.bucket.info, canPutReplication: canPut(m.data.bucket.perms) }
      ),
    );
    loadingBody.catch(() => {}); // awaited below unless the page ends early
    const meta = await loadingMeta;
    if (!meta.data.bucket) {
      const error = meta.error!;
      if (error.status === 404) {
        return renderInShell(deps, c, {
          title: "Bucket",
          status: 404,
          body: (
            <>
              <PageHeader title="Bucket" />
              <p>Bucket {bucket} does not exist.</p>
            </>
          ),
        });
      }
      return renderInShell(deps, c, {
        title: "Bucket",
        status: error.status === 403 ? 403 : undefined,
        error,
        body: (
          <>
            <PageHeader title="Bucket" />
            <UnavailableNote what={`Bucket ${bucket}`} error={error} />
          </>
        ),
      });
    }
    const { info, perms } = meta.data.bucket;
    const can = (perm: string) => perms.permissions.some((p) => p.id === perm && p.can);
    const { body, error } = await loadingBody;
    return renderInShell(deps, c, {
      title: `${bucket} | Buckets`,
      error: error ?? meta.error,
      body: (
        <BucketLayout
          base={base}
          bucket={bucket}
          access={info.access ?? "PRIVATE"}
          section={id}
          distributed={session.distributed}
          canReadReplication={can("get")}
        >
          {body}
        </BucketLayout>
      ),
    });
  }

  async function sectionBody(
    c: Context<AppEnv>,
    bucket: string,
    id: SectionId,
    loadingMeta: Promise<{ info: BucketInfo; canPutReplication: boolean } | null>,
  ): Promise<{ body: ReactNode; error?: ApiError }> {
    const session = c.get("session")!;
    if (id === "summary") {
      // Sections the Summary shows only in distributed mode are not read otherwise (spec 2 Summary).
      const distributedOnly =
        <V,>(load: (client: S3Client) => Promise<V>, fallback: V) => (client: S3Client) =>
          session.distributed ? load(client) : Promise.resolve(fallback);
      let lock: ReturnType<typeof settings.lockReader> | undefined;
      const lockOf = (client: S3Client) => (lock ??= settings.lockReader(client, bucket));
      const { data, error, failed } = await loadAll<Omit<SummaryState, "access" | "size" | "unavailable">>(
        deps,
        session,
        {
          encryption: [
            async (client) => {
              try {
                const enc = await settings.encryptionInfo(client, bucket);
                return {
                  type: enc.algorithm === "AES256" ? "sse-s3" as const : "sse-kms" as const,
                  kmsKey: enc.kmsMasterKeyID,
                };
              } catch (e) {
                if (toApiError(e).status === 404) return { type: "disabled" as const, kmsKey: "" };
                throw e;
              }
            },
            { type: "disabled", kmsKey: "" },
            "Encryption",
          ],
          versioning: [
            distributedOnly(
              async (client) => (await settings.isVersioned(client, bucket)).is_versioned,
              false,
            ),
            false,
            "Versioning",
          ],
          locking: [
            async (client) => (await lockOf(client).locking()).object_locking_enabled,
            false,
            "Object Locking",
          ],
          replication: [
            distributedOnly(
              async (client) => (await listReplicationRules(client, bucket)).rules.length > 0,
              false,
            ),
            false,
            "Replication",
          ],
          replicationStatus: [
            distributedOnly((client) => quietReplicationStatus(client, bucket), null),
            null,
            "Replication Status",
          ],
          quota: [
            distributedOnly((client) => settings.getQuota(client, bucket), {
              quota: 0,
              type: "hard" as const,
            }),
            { quota: 0, type: "hard" },
            "Quota",
          ],
          // A failed retention read means none (spec 2 §8); a denied one is shown as denied.
          retention: [
            (client) =>
              lockOf(client).retention().catch((
                e,
              ) => (toApiError(e).status === 403 ? Promise.reject(e) : null)),
            null,
            "Retention",
          ],
        },
      );
      const info = (await loadingMeta)?.info;
      if (!info) return { body: null };
      const initial: SummaryState = {
        ...data,
        access: info.access ?? "PRIVATE",
        size: info.size,
        unavailable: failed,
      };
      return {
        error,
        body: (
          <Island
            name="BucketSummary"
            component={BucketSummary}
            props={{ bucket, distributed: session.distributed, initial }}
          />
        ),
      };
    }
    if (id === "events") {
      const { data, error, failed } = await loadAll<
        { events: Awaited<ReturnType<typeof listEvents>>["events"]; arns: string[] }
      >(deps, session, {
        events: [async (client) => (await listEvents(client, bucket)).events, [], "Events"],
        arns: [(client) => notificationArns(client), [], "Notification Targets"],
      });
      return {
        error,
        body: (
          <Island
            name="BucketEvents"
            component={BucketEvents}
            props={{ bucket, ...data, unavailable: failed.events }}
          />
        ),
      };
    }
    if (id === "replication") {
      const { data, error, failed } = await loadAll<
        {
          rules: Awaited<ReturnType<typeof listReplicationRules>>["rules"];
          status: Awaited<ReturnType<typeof replicationStatus>>;
        }
      >(deps, session, {
        rules: [
          async (client) => (await listReplicationRules(client, bucket)).rules,
          [],
          "Replication Rules",
        ],
        status: [(client) => quietReplicationStatus(client, bucket), null, "Replication Status"],
      });
      const canAdd = (await loadingMeta)?.canPutReplication ?? false;
      return {
        error,
        body: (
          <Island
            name="BucketReplication"
            component={BucketReplication}
            props={{ bucket, rules: data.rules, status: data.status, unavailable: failed.rules, canAdd }}
          />
        ),
      };
    }
    if (id === "lifecycle") {
      const { data, error, failed } = await loadAll<
        { rules: Awaited<ReturnType<typeof listLifecycle>>["lifecycle"]; tiers: string[] }
      >(deps, session, {
        rules: [async (client) => (await listLifecycle(client, bucket)).lifecycle, [], "Lifecycle Rules"],
        // A failed tiers read is ignored (spec 2 §8).
        tiers: [
          async (client) =>
            (await listTierViews(client).catch(() => ({ items: [] }))).items.map((t) =>
              (t[t.type] as { name: string }).name
            ),
          [],
          "Tiers",
        ],
      });
      return {
        error,
        body: (
          <Island
            name="BucketLifecycle"
            component={BucketLifecycle}
            props={{ bucket, ...data, unavailable: failed.rules }}
          />
        ),
      };
    }
    if (id === "access") {
      const showUsers = isPathAllowed(pagesOf(c), "/users");
      const { data, error, failed } = await loadAll<{ policies: string[]; users: string[] }>(deps, session, {
        policies: [
          async (client) => (await policiesForBucket(client, bucket)).policies.map((p) => p.name),
          [],
          "Policies",
        ],
        users: [async (client) => (showUsers ? await usersForBucket(client, bucket) : []), [], "Users"],
      });
      return {
        error,
        body: (
          <Island
            name="BucketAccess"
            component={BucketAccess}
            props={{ view: "audit", bucket, ...data, unavailable: failed, showUsers, base }}
          />
        ),
      };
    }
    const { data, error, failed } = await loadAll<
      { rules: Awaited<ReturnType<typeof listAccessRules>>["accessRules"] }
    >(deps, session, {
      rules: [async (client) => (await listAccessRules(client, bucket)).accessRules, [], "Access Rules"],
    });
    return {
      error,
      body: (
        <Island
          name="BucketAccess"
          component={BucketAccess}
          props={{ view: "rules", bucket, rules: data.rules, unavailable: failed.rules }}
        />
      ),
    };
  }

  return new Hono<AppEnv>()
    .get("/buckets", async (c) => {
      const session = c.get("session")!;
      const { data: loaded, error, failed } = await loadAll<
        { view: Awaited<ReturnType<typeof accountView>> }
      >(deps, session, {
        view: [(client) => accountView(client), { buckets: [], policy: null }, "Buckets"],
      });
      const data = {
        buckets: loaded.view.buckets,
        canCreate: evaluatePermissions(loaded.view.policy, {
          actions: [{ id: "create", action: "s3:CreateBucket", bucket_name: "" }],
        }).permissions[0].can,
      };
      return renderInShell(deps, c, {
        title: "Buckets",
        error,
        body: (
          <>
            <PageHeader title="Buckets" />
            <Island
              name="BucketsList"
              component={BucketsList}
              props={{
                ...data,
                unavailable: failed.view ?? bucketListRefusal(loaded.view),
                distributed: session.distributed,
                base,
              }}
            />
          </>
        ),
      });
    })
    .get(
      "/buckets/:bucket",
      (c) => c.redirect(`${base}buckets/${encodeURIComponent(c.req.param("bucket"))}/summary`, 302),
    )
    .get("/buckets/:bucket/:section", async (c) => {
      const id = c.req.param("section") as SectionId;
      const known = SECTIONS.find((s) => s.id === id);
      const session = c.get("session")!;
      if (!known || ("distributedOnly" in known && !session.distributed)) {
        return c.redirect(`${base}buckets/${encodeURIComponent(c.req.param("bucket"))}/summary`, 302);
      }
      return await section(c, c.req.param("bucket"), id);
    });
}
