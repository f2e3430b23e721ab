/**
 * The object browser pages (spec 3 §2.4): /object-browser (all buckets), /object-browser/{bucket}/{folder}/
 * and /object-browser/{bucket}/{object}. Every URL renders on the server with its first page of data, so
 * deep links and reloads work; the ObjectBrowser island then moves between them in place.
 */
import { type Context, Hono } from "hono";
import ObjectBrowser, { type ObjectBrowserProps } from "../islands/ObjectBrowser/ObjectBrowser.tsx";
import { type BrowserLocation, crumbsOf, parseLocation } from "../islands/ObjectBrowser/locations.ts";
import type { AppDeps } from "../server/console/deps.ts";
import type { AppEnv } from "../server/console/session/env.ts";
import { Island } from "../server/console/render/island.tsx";
import {
  bucketsRefusal,
  folderRefusal,
  objectRefusal,
  type Refusal,
} from "../islands/ObjectBrowser/refusals.ts";
import type { SessionData } from "../server/console/session/token.ts";
import { toApiError } from "../server/console/http/errors.ts";
import { accountView, bucketListRefusal, evaluatePermissions } from "../server/console/services/buckets.ts";
import { folderVersioning, objectDetail } from "../server/console/services/object_detail.ts";
import { listPage } from "../server/console/services/objects.ts";
import { archiveSupport } from "../server/console/services/object_archive.ts";
import { loadAll } from "./page_data.ts";
import { renderInShell } from "./page_context.tsx";
import { t } from "../islands/lib/i18n/t.ts";

/**
 * Entries in the server-rendered first page: several screens of rows (40 px each), a fraction of a storage
 * page, so the HTML and its render stay small; scrolling continues with the storage's token in pages of 1,000.
 */
const FIRST_PAGE = 250;

type Loaded = Pick<ObjectBrowserProps, "folder" | "versioned" | "detail"> & {
  view: Awaited<ReturnType<typeof accountView>> | null;
};

/**
 * The data of the view a URL opens, each piece loaded on its own (a failure names its section in the banner),
 * and what the island says in place of the view when its main piece could not be read.
 */
async function loadFirstView(deps: AppDeps, session: SessionData, loc: BrowserLocation) {
  let unavailable: string | undefined;
  const noting = <V,>(load: Promise<V>, refusal: (e: Refusal) => string) =>
    load.catch((e) => {
      unavailable = refusal(toApiError(e));
      throw e;
    });
  const loaded = await loadAll<Loaded>(deps, session, {
    view: [
      async (client) => (loc.kind === "buckets" ? await noting(accountView(client), bucketsRefusal) : null),
      null,
      t("common.menu.buckets"),
    ],
    folder: [
      async (client) =>
        loc.kind === "folder"
          ? await noting(
            listPage(client, loc.bucket, { prefix: loc.prefix, limit: FIRST_PAGE }),
            folderRefusal,
          )
          : null,
      null,
      t("objects.page.sectionObjects"),
    ],
    versioned: [
      async (
        client,
      ) => (loc.kind === "folder" ? (await folderVersioning(client, loc.bucket)).is_versioned : null),
      null,
      t("objects.page.sectionVersioning"),
    ],
    detail: [
      async (client) =>
        loc.kind === "object"
          ? await noting(objectDetail(client, loc.bucket, loc.key, loc.versionId), objectRefusal)
          : null,
      null,
      t("objects.page.sectionObject"),
    ],
  });
  const view = loaded.data.view;
  return { ...loaded, unavailable: unavailable ?? (view ? bucketListRefusal(view) : undefined) };
}

export function objectPages(deps: AppDeps) {
  const base = deps.render.href("/");

  async function page(c: Context<AppEnv>) {
    const url = new URL(c.req.url);
    let location: BrowserLocation | null;
    try {
      location = parseLocation(url.pathname, url.search);
    } catch {
      location = null; // a malformed percent-encoding
    }
    if (!location) return c.notFound();
    const session = c.get("session")!;
    const { data, error, unavailable } = await loadFirstView(deps, session, location);
    const crumbs = crumbsOf(location);
    const view = data.view;
    const props: ObjectBrowserProps = {
      base,
      location,
      distributed: session.distributed,
      direct: !!deps.config.storagePublicUrl,
      archives: await archiveSupport(
        { url: deps.storage.url, embedded: !deps.config.minioServer },
        deps.fetch,
      ),
      linksKept: c.get("capabilities")?.adminApi !== "no",
      canCreateBucket: view !== null && evaluatePermissions(view.policy, {
        actions: [{ id: "create", action: "s3:CreateBucket", bucket_name: "" }],
      }).permissions[0].can,
      buckets: location.kind === "buckets" ? view?.buckets ?? [] : null,
      folder: data.folder,
      versioned: data.versioned,
      detail: data.detail,
      unavailable,
    };
    return renderInShell(deps, c, {
      title: location.kind === "buckets"
        ? t("objects.browser.allBuckets")
        : `${crumbs[crumbs.length - 1].label} | ${t("common.menu.objectBrowser")}`,
      error,
      body: <Island name="ObjectBrowser" component={ObjectBrowser} props={props} />,
    });
  }

  return new Hono<AppEnv>()
    .get("/object-browser", page)
    .get("/object-browser/*", page);
}
