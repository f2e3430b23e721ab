/**
 * The object browser island (spec 3 §2.4): all buckets, a bucket's folders and one object, moving between
 * them in place (the URL and history follow, back and forward work) after a first view the server rendered
 * with its data. Breadcrumbs start at 'All Buckets'; a path bar jumps straight to any folder or object;
 * 'Shared Links' lists and revokes the user's links.
 */
import { useEffect, useRef, useState } from "react";
import type { BucketSummary } from "../../server/lib/contract/buckets.ts";
import type { ObjectDetail, ObjectList } from "../../server/lib/contract/objects.ts";
import { objectsApi } from "../lib/api/objects.ts";
import { ApiClientError, basePath } from "../lib/request.ts";
import { BucketList, type BucketsView, loadBuckets } from "./BucketList.tsx";
import type { RewindState } from "./folder_state.ts";
import { FolderView } from "./FolderView.tsx";
import { type BrowserLocation, crumbsOf, hrefOf, parseLocation } from "./locations.ts";
import { ObjectView } from "./ObjectView.tsx";
import { bucketsRefusal } from "./refusals.ts";
import { SharedLinksDialog } from "./ShareDialogs.tsx";
import { SlowHint } from "./SlowHint.tsx";
import { t } from "../lib/i18n/t.ts";

export interface ObjectBrowserProps {
  /** The console's base path ("/" or the subpath). */
  base: string;
  location: BrowserLocation;
  canCreateBucket: boolean;
  distributed: boolean;
  /** Upload parts go straight to storage (CONSOLE_STORAGE_PUBLIC_URL is set). */
  direct: boolean;
  /** The storage unpacks archives on upload ("Upload as archive" sends one tar; else files one by one). */
  archives: boolean;
  /**
   * Share links are kept as MinIO service accounts and can be listed and revoked; false on a server without
   * MinIO's admin API, where a link is presigned with the session's own keys and kept nowhere.
   */
  linksKept: boolean;
  /** The first view's data, as the server rendered it (null for the other kinds). */
  buckets: BucketSummary[] | null;
  folder: ObjectList | null;
  /** The folder's bucket has versioning on; null when the user may not read that (or not a folder). */
  versioned: boolean | null;
  detail: ObjectDetail | null;
  /** What the first view says in place of what it could not read (folder_state.ts, refusals.ts). */
  unavailable?: string;
}

const titleOf = (location: BrowserLocation) => {
  const crumbs = crumbsOf(location);
  const last = crumbs[crumbs.length - 1].label;
  return location.kind === "buckets"
    ? t("objects.browser.allBuckets")
    : last.replace(/\/$/, "") || location.bucket;
};

const pathOf = (
  location: BrowserLocation,
) => (location.kind === "folder" ? location.prefix : location.kind === "object" ? location.key : "");

export default function ObjectBrowser(props: ObjectBrowserProps) {
  const [location, setLocation] = useState(props.location);
  // The server's data serves the first view only; later views fetch their own.
  const first = useRef(true);
  const [buckets, setBuckets] = useState<BucketsView | null>(
    props.buckets ? { list: props.buckets, unavailable: props.unavailable } : null,
  );
  const [versioned, setVersioned] = useState<Record<string, boolean | null>>(
    location.kind === "folder" ? { [location.bucket]: props.versioned } : {},
  );
  const [rewind, setRewind] = useState<RewindState | null>(null);
  const [showLinks, setShowLinks] = useState(false);
  const [path, setPath] = useState(pathOf(props.location));

  function navigate(next: BrowserLocation, options: { replace?: boolean; fromHistory?: boolean } = {}) {
    first.current = false;
    if (!options.fromHistory) {
      history[options.replace ? "replaceState" : "pushState"](null, "", hrefOf(props.base, next));
    }
    document.title = `${titleOf(next)} | Deck`;
    setPath(pathOf(next));
    setLocation(next);
    globalThis.scrollTo?.(0, 0);
  }

  useEffect(() => {
    const onPop = () => {
      const here = globalThis.location;
      const next = parseLocation("/" + here.pathname.slice(basePath().length), here.search);
      if (next) navigate(next, { fromHistory: true });
    };
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);

  useEffect(() => {
    if (location.kind === "buckets" && !first.current) {
      setBuckets(null);
      // A failure is said in place of the list (spec 3 §8: bucket list failures raise no banner).
      loadBuckets().then(setBuckets, (error) =>
        setBuckets({
          list: [],
          unavailable: error instanceof ApiClientError ? bucketsRefusal(error) : String(error),
        }));
    }
    if (location.kind === "folder" && versioned[location.bucket] === undefined) {
      objectsApi.versioning(location.bucket).then(
        (v) => setVersioned((m) => ({ ...m, [location.bucket]: v.is_versioned })),
        () => {},
      );
    }
  }, [location]);

  const crumbs = crumbsOf(location);
  const goToPath = () => {
    if (location.kind === "buckets") return;
    const cleaned = path.replace(/^\/+/, "");
    navigate(
      cleaned === "" || cleaned.endsWith("/")
        ? { kind: "folder", bucket: location.bucket, prefix: cleaned }
        : { kind: "object", bucket: location.bucket, key: cleaned },
    );
  };
  return (
    <div data-testid="object-browser">
      <header className="flex flex-wrap items-center justify-between gap-3 mb-2">
        <h1
          className="text-2xl font-bold break-words min-w-0"
          translate={location.kind === "buckets" ? undefined : "no"}
        >
          {titleOf(location)}
        </h1>
        <button type="button" className="btn btn-sm" onClick={() => setShowLinks(true)}>
          {t("objects.browser.sharedLinks")}
        </button>
      </header>
      <nav className="breadcrumbs text-sm mb-2" aria-label={t("objects.browser.breadcrumb")}>
        <ul>
          {crumbs.map((crumb, index) => (
            <li key={index} className="wrap-anywhere" translate={index === 0 ? undefined : "no"}>
              {index === crumbs.length - 1 ? <span aria-current="page">{crumb.label}</span> : (
                <a
                  href={hrefOf(props.base, crumb.location)}
                  onClick={(e) => (e.preventDefault(), navigate(crumb.location))}
                >
                  {crumb.label}
                </a>
              )}
            </li>
          ))}
        </ul>
      </nav>
      {location.kind !== "buckets"
        ? (
          <form className="join w-full mb-4" onSubmit={(e) => (e.preventDefault(), goToPath())}>
            <span
              translate="no"
              className="join-item flex items-center px-3 text-sm bg-base-300 border border-base-300 font-mono"
            >
              {location.bucket}/
            </span>
            <input
              className="input input-sm join-item flex-1 border-base-300 font-mono"
              aria-label={t("objects.browser.path")}
              value={path}
              onChange={(e) => setPath(e.target.value)}
              placeholder={t("objects.browser.pathPlaceholder")}
            />
            <button type="submit" className="btn btn-sm join-item">{t("objects.browser.go")}</button>
          </form>
        )
        : null}
      {location.kind === "buckets"
        ? buckets
          ? (
            <BucketList
              base={props.base}
              initial={buckets}
              canCreate={props.canCreateBucket}
              distributed={props.distributed}
              onNavigate={navigate}
            />
          )
          : <SlowHint />
        : null}
      {location.kind === "folder"
        ? (
          <FolderView
            key={location.bucket}
            base={props.base}
            bucket={location.bucket}
            prefix={location.prefix}
            initial={first.current ? { list: props.folder, unavailable: props.unavailable } : null}
            versioned={location.bucket in versioned ? versioned[location.bucket] : false}
            direct={props.direct}
            archives={props.archives}
            rewind={rewind}
            onRewind={setRewind}
            onNavigate={navigate}
          />
        )
        : null}
      {location.kind === "object"
        ? (
          <ObjectView
            bucket={location.bucket}
            objectKey={location.key}
            versionId={location.versionId}
            initial={first.current ? props.detail : null}
            unavailable={first.current ? props.unavailable : undefined}
            onNavigate={navigate}
          />
        )
        : null}
      <SharedLinksDialog open={showLinks} onClose={() => setShowLinks(false)} kept={props.linksKept} />
    </div>
  );
}
