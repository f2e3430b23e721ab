/**
 * The Buckets pages (spec 2): the list, and a bucket's detail with its header, its left menu and the section
 * the sub-route names (the sections are a table: routes/bucket_sections.tsx). Each renders with its data; the
 * interactive part of each is one island.
 */
import { type Context, Hono } from "hono";
import type { ReactNode } from "react";
import BucketAccessLabel from "../islands/BucketAccessLabel.tsx";
import BucketHeaderActions from "../islands/BucketHeaderActions.tsx";
import BucketsList from "../islands/BucketsList.tsx";
import type { AppDeps } from "../server/console/deps.ts";
import type { ServerCapabilities } from "../server/lib/contract/capabilities.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { Island } from "../server/console/render/island.tsx";
import {
  accountView,
  bucketListRefusal,
  type BucketMeta,
  bucketMeta,
  evaluatePermissions,
} from "../server/console/services/buckets.ts";
import { type BucketSection, sectionsFor } from "./bucket_sections.tsx";
import { loadAll } from "./page_data.ts";
import { PageHeader, UnavailableNote } from "./layout/Shell.tsx";
import { renderInShell } from "./page_context.tsx";
import { t } from "../islands/lib/i18n/t.ts";

function BucketLayout(
  props: {
    base: string;
    bucket: string;
    access: string;
    section: string;
    sections: BucketSection[];
    meta: BucketMeta;
    children: ReactNode;
  },
) {
  const href = (section: string) => `${props.base}buckets/${encodeURIComponent(props.bucket)}/${section}`;
  return (
    <>
      <nav className="breadcrumbs text-sm mb-2" aria-label={t("buckets.detail.breadcrumb")}>
        <ul>
          <li>
            <a href={`${props.base}buckets`}>{t("buckets.list.title")}</a>
          </li>
          <li className="wrap-anywhere" translate="no">{props.bucket}</li>
        </ul>
      </nav>
      <header className="flex flex-wrap items-start justify-between gap-3 mb-6">
        <div>
          <h1 className="text-2xl font-bold wrap-anywhere" translate="no">{props.bucket}</h1>
          <Island name="BucketAccessLabel" component={BucketAccessLabel} props={{ access: props.access }} />
        </div>
        <div className="flex gap-2">
          <Island
            name="BucketHeaderActions"
            component={BucketHeaderActions}
            props={{ bucket: props.bucket, base: props.base }}
          />
          <a className="btn btn-sm" href={href(props.section)}>{t("common.action.refresh")}</a>
        </div>
      </header>
      {/* Side by side from 1024 px; narrower, the sections run in a row above the content, which keeps the width. */}
      <div className="flex flex-col lg:flex-row gap-4 lg:gap-6">
        <ul
          className="deck-section-menu menu menu-horizontal lg:menu-vertical bg-base-100 rounded-box w-full lg:w-52 shrink-0"
          aria-label={t("buckets.detail.sections")}
        >
          {props.sections.map((s) => (
            <li key={s.id}>
              {s.permission && !props.meta.can(s.permission)
                ? <span className="menu-disabled" aria-disabled="true">{t(s.label)}</span>
                : (
                  <a href={href(s.id)} aria-current={s.id === props.section ? "page" : undefined}>
                    {t(s.label)}
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

/** What the create dialog leaves out on a server other than MinIO ("no" only: an unanswered question offers all). */
function plainServerOf(caps: ServerCapabilities | undefined): { lacks: string[] } | undefined {
  if (caps?.adminApi !== "no") return undefined;
  const lacks: string[] = [];
  if (caps.s3.versioning === "no") lacks.push("Versioning");
  if (caps.s3.objectLock === "no") lacks.push("Object Locking");
  return { lacks };
}

export function bucketPages(deps: AppDeps) {
  const base = deps.render.href("/");

  /** The header's read: one account-info call gives the bucket (size, date) and the policy for permissions. */
  const readMeta = (c: Context<AppEnv>, bucket: string) =>
    loadAll<{ bucket: BucketMeta | null }>(deps, c.get("session")!, {
      bucket: [
        (client) => bucketMeta(client, bucket),
        null,
        t("buckets.detail.bucket"),
      ],
    });

  /** The page of a bucket that could not be read: "does not exist" only when the storage says so. */
  function unreadableBucket(c: Context<AppEnv>, bucket: string, error: { status: number; message: string }) {
    if (error.status === 404) {
      return renderInShell(deps, c, {
        title: t("buckets.detail.bucket"),
        status: 404,
        body: (
          <>
            <PageHeader title={t("buckets.detail.bucket")} />
            <p>{t("buckets.detail.notFound", { bucket })}</p>
          </>
        ),
      });
    }
    return renderInShell(deps, c, {
      title: t("buckets.detail.bucket"),
      status: error.status === 403 ? 403 : undefined,
      error,
      body: (
        <>
          <PageHeader title={t("buckets.detail.bucket")} />
          <UnavailableNote what={t("buckets.detail.bucketNamed", { bucket })} error={error} />
        </>
      ),
    });
  }

  async function sectionPage(c: Context<AppEnv>, bucket: string, section: BucketSection) {
    const session = c.get("session")!;
    const loadingMeta = readMeta(c, bucket);
    // The section's own data is read at the same time (one wait less under load); it is dropped when the
    // bucket turns out missing or denied.
    const loadingBody = section.render({
      deps,
      c,
      session,
      bucket,
      base,
      meta: loadingMeta.then((m) => m.data.bucket),
    });
    loadingBody.catch(() => {}); // awaited below unless the page ends early
    const meta = await loadingMeta;
    if (!meta.data.bucket) return unreadableBucket(c, bucket, meta.error!);
    const { body, error } = await loadingBody;
    return renderInShell(deps, c, {
      title: t("buckets.detail.pageTitle", { bucket }),
      error: error ?? meta.error,
      body: (
        <BucketLayout
          base={base}
          bucket={bucket}
          access={meta.data.bucket.info.access ?? "PRIVATE"}
          section={section.id}
          sections={sectionsFor(session.distributed, c.get("capabilities"))}
          meta={meta.data.bucket}
        >
          {body}
        </BucketLayout>
      ),
    });
  }

  return new Hono<AppEnv>()
    .get("/buckets", async (c) => {
      const session = c.get("session")!;
      const { data: loaded, error, failed } = await loadAll<
        { view: Awaited<ReturnType<typeof accountView>> }
      >(deps, session, {
        view: [
          (client) => accountView(client),
          { buckets: [], policy: null, details: new Map() },
          t("buckets.list.title"),
        ],
      });
      const data = {
        buckets: loaded.view.buckets,
        canCreate: evaluatePermissions(loaded.view.policy, {
          actions: [{ id: "create", action: "s3:CreateBucket", bucket_name: "" }],
        }).permissions[0].can,
      };
      return renderInShell(deps, c, {
        title: t("buckets.list.title"),
        error,
        body: (
          <>
            <PageHeader title={t("buckets.list.title")} />
            <Island
              name="BucketsList"
              component={BucketsList}
              props={{
                ...data,
                unavailable: failed.view ?? bucketListRefusal(loaded.view),
                distributed: session.distributed,
                plainServer: plainServerOf(c.get("capabilities")),
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
      const section = sectionsFor(c.get("session")!.distributed, c.get("capabilities")).find((s) =>
        s.id === c.req.param("section")
      );
      if (!section) {
        return c.redirect(`${base}buckets/${encodeURIComponent(c.req.param("bucket"))}/summary`, 302);
      }
      return await sectionPage(c, c.req.param("bucket"), section);
    });
}
