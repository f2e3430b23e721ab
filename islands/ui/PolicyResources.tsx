/**
 * A statement's resources in the policy builder: the chosen ones as chips said in words, and a picker that
 * builds the `arn:aws:s3:::` name from a bucket (the account's buckets offered, or `*` for all), what of it the
 * statement covers, and a prefix or object key (the bucket's folders offered). The name it builds can be edited
 * before it is added, for wildcards such as `logs-*`.
 */
import { t } from "../lib/i18n/t.ts";
import { useEffect, useId, useState } from "react";
import { objectsApi } from "../lib/api/objects.ts";
import { describeResource, resourceArn, type ResourceScope } from "../lib/policy/catalog.ts";
import { Chips } from "./Chips.tsx";

/** The resource picker's texts, looked up when shown (in the language in force). */
const TEXT = {
  get legend() {
    return t("iam.resources.legend");
  },
  get mode() {
    return t("iam.actions.mode");
  },
  get these() {
    return t("iam.resources.these");
  },
  get except() {
    return t("iam.resources.except");
  },
  get chosen() {
    return t("iam.resources.chosen");
  },
  get none() {
    return t("iam.resources.none");
  },
  get bucket() {
    return t("iam.resources.bucket");
  },
  get bucketHint() {
    return t("iam.resources.bucketHint");
  },
  get scope() {
    return t("iam.resources.scope");
  },
  scopes: {
    get bucket() {
      return t("iam.resources.scopeBucket");
    },
    get objects() {
      return t("iam.resources.scopeObjects");
    },
    get prefix() {
      return t("iam.resources.scopePrefix");
    },
    get object() {
      return t("iam.resources.scopeObject");
    },
  } satisfies Record<ResourceScope, string>,
  get prefix() {
    return t("iam.resources.prefix");
  },
  get key() {
    return t("iam.resources.object");
  },
  get resource() {
    return t("iam.word.resource");
  },
  get add() {
    return t("iam.resources.add");
  },
};

/** Folders and objects offered for a prefix, at most this many. */
const SUGGESTIONS = 200;

export type ResourceField = "Resource" | "NotResource";

export function PolicyResources(
  { field, resources, buckets, onChange }: {
    field: ResourceField;
    resources: string[];
    /** The account's buckets, offered in the bucket field. */
    buckets: string[];
    onChange: (field: ResourceField, resources: string[] | null) => void;
  },
) {
  const id = useId();
  const [bucket, setBucket] = useState("");
  const [scope, setScope] = useState<ResourceScope>("objects");
  const [path, setPath] = useState("");
  // The name typed over the one the picker builds, until the picker is used again.
  const [typed, setTyped] = useState<string | null>(null);
  const arn = typed ?? resourceArn(bucket, scope, path);
  const names = useNamesUnder(buckets.includes(bucket) ? bucket : "", scope === "bucket" ? null : path);
  const pick = <T,>(set: (value: T) => void) => (value: T) => (set(value), setTyped(null));
  const add = () => {
    if (!resources.includes(arn)) onChange(field, [...resources, arn]);
    setPath("");
    setTyped(null);
  };
  const remove = (i: number) => {
    const rest = resources.filter((_, j) => j !== i);
    onChange(field, rest.length ? rest : null);
  };
  return (
    <fieldset className="mb-3">
      <legend className="text-sm font-bold mb-1">{TEXT.legend}</legend>
      <label className="flex items-center gap-2 text-sm mb-2">
        {TEXT.mode}
        <select
          className="select select-sm border-base-300 w-auto"
          value={field}
          onChange={(e) => onChange(e.target.value as ResourceField, resources.length ? resources : null)}
        >
          <option value="Resource">{TEXT.these}</option>
          <option value="NotResource">{TEXT.except}</option>
        </select>
      </label>
      <Chips label={TEXT.chosen} items={resources} onRemove={remove} describe={describeResource} />
      {resources.length === 0 ? <p className="text-sm text-base-content/70 mb-2">{TEXT.none}</p> : null}
      <div className="flex flex-wrap gap-2">
        <label className="text-sm flex-1 min-w-40">
          <span className="block mb-1">{TEXT.bucket}</span>
          <input
            className="input input-sm border-base-300 w-full"
            list={`${id}-buckets`}
            placeholder={TEXT.bucketHint}
            value={bucket}
            onChange={(e) => pick(setBucket)(e.target.value)}
          />
          <datalist id={`${id}-buckets`}>
            {["*", ...buckets].map((b) => <option key={b} value={b} />)}
          </datalist>
        </label>
        <label className="text-sm">
          <span className="block mb-1">{TEXT.scope}</span>
          <select
            className="select select-sm border-base-300 w-auto"
            value={scope}
            onChange={(e) => pick(setScope)(e.target.value as ResourceScope)}
          >
            {(Object.keys(TEXT.scopes) as ResourceScope[]).map((s) => (
              <option key={s} value={s}>{TEXT.scopes[s]}</option>
            ))}
          </select>
        </label>
        {scope === "prefix" || scope === "object"
          ? (
            <label className="text-sm flex-1 min-w-48">
              <span className="block mb-1">{scope === "prefix" ? TEXT.prefix : TEXT.key}</span>
              <input
                className="input input-sm border-base-300 w-full"
                list={`${id}-names`}
                value={path}
                onChange={(e) => pick(setPath)(e.target.value)}
              />
              <datalist id={`${id}-names`}>
                {names.map((n) => <option key={n} value={n} />)}
              </datalist>
            </label>
          )
          : null}
      </div>
      <div className="flex items-end gap-2 mt-2">
        <label className="text-sm flex-1 min-w-0">
          <span className="block mb-1">{TEXT.resource}</span>
          <input
            className="input input-sm border-base-300 w-full font-mono"
            value={arn}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => e.key === "Enter" && (e.preventDefault(), add())}
          />
        </label>
        <button type="button" className="btn btn-sm" disabled={!arn.trim()} onClick={add}>{TEXT.add}</button>
      </div>
    </fieldset>
  );
}

/**
 * Folder and object names in `bucket` under the folder `path` is in, to offer as prefixes; none without a
 * bucket the account can see. A listing that fails offers nothing: the field still takes any text.
 */
function useNamesUnder(bucket: string, path: string | null): string[] {
  const folder = path === null ? null : path.slice(0, path.lastIndexOf("/") + 1);
  const [names, setNames] = useState<{ at: string; list: string[] }>({ at: "", list: [] });
  const at = bucket && folder !== null ? `${bucket}/${folder}` : "";
  useEffect(() => {
    if (!at || names.at === at) return;
    let live = true;
    objectsApi.page(bucket, folder!).then(
      (page) => live && setNames({ at, list: (page.objects ?? []).map((o) => o.name).slice(0, SUGGESTIONS) }),
      () => live && setNames({ at, list: [] }),
    );
    return () => void (live = false);
  }, [at]);
  return names.at === at ? names.list : [];
}
