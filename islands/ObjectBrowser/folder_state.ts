/**
 * A folder's listing in the browser: the first page (from the server-rendered HTML, or fetched), further
 * pages on demand as the table scrolls, and the rewind view of the same folder. Keyed by bucket and
 * prefix, so moving to another folder starts over and a late answer for the old one is dropped.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { ObjectItem, ObjectList, RewindItem } from "../../server/lib/contract/objects.ts";
import { objectsApi } from "../lib/api/objects.ts";
import { ApiClientError } from "../lib/request.ts";
import { reportError } from "../lib/use_list.ts";
import { folderRefusal } from "./refusals.ts";

export interface RewindState {
  enabled: boolean;
  bucket: string;
  /** ISO date-time the folder is shown as of. */
  date: string;
}

interface Listing {
  key: string;
  items: ObjectItem[];
  next?: string;
  loading: boolean;
  /** Why the folder could not be listed, said in place of its rows. */
  unavailable?: string;
}

/** What the view starts with: the server's first page, or why it could not be listed. */
export interface FirstPage {
  list: ObjectList | null;
  unavailable?: string;
}

/**
 * Pages of one folder (with `deleted`, each key's latest version, deleted ones included); `loadMore` fetches
 * the next page once (concurrent calls share it).
 */
export function useFolderListing(bucket: string, prefix: string, deleted: boolean, first: FirstPage | null) {
  const key = `${bucket}\n${prefix}\n${deleted}`;
  // Without server data the listing starts as nobody's, so the effect below loads it.
  const [listing, setListing] = useState<Listing>(() => ({
    key: first ? key : "",
    items: first?.list?.objects ?? [],
    next: first?.list?.next_token,
    loading: !first,
    unavailable: first?.unavailable,
  }));
  const current = useRef(key);
  current.current = key;
  const loadingMore = useRef(false);

  const loadFirst = useCallback(async () => {
    // A reload keeps the rows on screen until the new ones arrive (no flash of an empty folder).
    setListing((l) => (l.key === key ? { ...l, loading: true } : { key, items: [], loading: true }));
    try {
      const page = await objectsApi.page(bucket, prefix, { deleted });
      if (current.current === key) {
        setListing({ key, items: page.objects ?? [], next: page.next_token, loading: false });
      }
    } catch (error) {
      const unavailable = error instanceof ApiClientError ? folderRefusal(error) : undefined;
      if (current.current === key) setListing({ key, items: [], loading: false, unavailable });
      reportError(error);
    }
  }, [key]);

  useEffect(() => {
    if (listing.key !== key) void loadFirst();
  }, [key]);

  const loadMore = useCallback(async () => {
    if (!listing.next || loadingMore.current || listing.key !== key) return;
    loadingMore.current = true;
    try {
      const page = await objectsApi.page(bucket, prefix, { deleted, token: listing.next });
      if (current.current !== key) return;
      setListing((l) => {
        const seen = new Set(l.items.map((i) => i.name));
        return {
          ...l,
          items: [...l.items, ...(page.objects ?? []).filter((i) => !seen.has(i.name))],
          next: page.next_token,
        };
      });
    } catch (error) {
      reportError(error);
    } finally {
      loadingMore.current = false;
    }
  }, [listing.next, listing.key, key]);

  const stale = listing.key !== key;
  return {
    items: stale ? [] : listing.items,
    hasMore: !stale && !!listing.next,
    loading: stale || listing.loading,
    unavailable: stale ? undefined : listing.unavailable,
    loadMore,
    reload: loadFirst,
  };
}

/** The folder as of the rewind date, when rewind is on for this bucket (spec 3 §4: it applies to its own bucket only). */
export function useRewindListing(bucket: string, prefix: string, rewind: RewindState | null) {
  const active = !!rewind?.enabled && rewind.bucket === bucket;
  const [state, setState] = useState<{ key: string; items: RewindItem[]; loading: boolean }>({
    key: "",
    items: [],
    loading: false,
  });
  const key = active ? `${bucket}\n${prefix}\n${rewind!.date}` : "";
  useEffect(() => {
    if (!active) return;
    let live = true;
    setState({ key, items: [], loading: true });
    objectsApi.rewind(bucket, prefix, rewind!.date)
      .then((list) => live && setState({ key, items: list.objects ?? [], loading: false }))
      .catch((error) => {
        if (live) setState({ key, items: [], loading: false });
        reportError(error);
      });
    return () => {
      live = false;
    };
  }, [key]);
  return {
    active,
    items: state.key === key ? state.items : [],
    loading: active && (state.key !== key || state.loading),
  };
}
