/**
 * Pod Affinity page (advanced; spec 3 §2.3): none, default anti-affinity, or a node selector from the
 * cluster's node labels (free text when they cannot be loaded), optionally with the anti-affinity.
 */
import { useEffect, useState } from "react";
import { joinLabels } from "../../server/lib/contract/operator_rules.ts";
import { operatorApi } from "../lib/api/operator.ts";
import { t } from "../lib/i18n/t.ts";
import { reportError } from "../lib/use_list.ts";
import { Switch } from "../ui/fields.tsx";
import { RadioGroup } from "./controls.tsx";
import type { PageProps } from "./NameTenant.tsx";
import { affinityErrors } from "./rules.ts";

export function PodAffinity({ state, patch }: PageProps) {
  const a = state.affinity;
  const [labels, setLabels] = useState<Record<string, string[]> | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (a.kind !== "nodeSelector" || labels || failed) return;
    operatorApi.nodeLabels().then((found) => {
      setLabels(found);
      const [firstKey] = Object.keys(found);
      if (firstKey && a.labels.every((l) => !l.key)) {
        patch("affinity", { labels: [{ key: firstKey, value: found[firstKey][0] ?? "" }] });
      }
    }, (error) => {
      reportError(error);
      setFailed(true);
    });
  }, [a.kind]);
  const keys = labels ? Object.keys(labels).sort() : [];
  const setRow = (i: number, row: { key: string; value: string }) =>
    patch("affinity", { labels: a.labels.map((l, j) => (j === i ? row : l)) });
  const errors = affinityErrors(state);
  return (
    <div>
      <h2 className="text-lg font-bold mb-1">{t("wizard.steps.podAffinity")}</h2>
      <p className="text-sm text-base-content/70 mb-4">{t("wizard.affinity.intro")}</p>
      <RadioGroup
        label={t("common.word.type")}
        value={a.kind}
        onChange={(kind) => patch("affinity", { kind })}
        options={[{ value: "none", label: t("common.word.none") }, {
          value: "default",
          label: t("wizard.word.defaultAffinity"),
        }, { value: "nodeSelector", label: t("wizard.word.nodeSelector") }]}
      />
      {a.kind === "nodeSelector"
        ? (
          <div>
            <Switch
              label={t("wizard.affinity.useAntiAffinity")}
              checked={a.withPodAntiAffinity}
              onChange={(withPodAntiAffinity) => patch("affinity", { withPodAntiAffinity })}
            />
            <div className="text-sm font-bold mb-1">{t("wizard.affinity.labels")}</div>
            {a.labels.map((row, i) => (
              <div key={i} className="flex gap-2 mb-2 items-center">
                {labels && !failed
                  ? (
                    <>
                      <select
                        className="select select-sm border-base-300"
                        aria-label={t("wizard.affinity.labelKey", { n: i + 1 })}
                        value={row.key}
                        onChange={(e) =>
                          setRow(i, { key: e.target.value, value: labels[e.target.value]?.[0] ?? "" })}
                      >
                        {keys.map((k) => <option key={k} value={k}>{k}</option>)}
                      </select>
                      <select
                        className="select select-sm border-base-300"
                        aria-label={t("wizard.affinity.labelValue", { n: i + 1 })}
                        value={row.value}
                        onChange={(e) => setRow(i, { ...row, value: e.target.value })}
                      >
                        {(labels[row.key] ?? []).map((v) => (
                          <option key={v} value={v}>{v || t("wizard.affinity.emptyValue")}</option>
                        ))}
                      </select>
                    </>
                  )
                  : !labels && !failed
                  ? (
                    <span
                      className="loading loading-spinner loading-sm"
                      role="status"
                      aria-label={t("wizard.affinity.loadingLabels")}
                    />
                  )
                  : (
                    <>
                      <input
                        className="input input-sm border-base-300"
                        aria-label={t("wizard.affinity.labelKey", { n: i + 1 })}
                        placeholder={t("common.word.key")}
                        value={row.key}
                        onChange={(e) => setRow(i, { ...row, key: e.target.value })}
                      />
                      <input
                        className="input input-sm border-base-300"
                        aria-label={t("wizard.affinity.labelValue", { n: i + 1 })}
                        placeholder={t("common.word.value")}
                        value={row.value}
                        onChange={(e) => setRow(i, { ...row, value: e.target.value })}
                      />
                    </>
                  )}
                <button
                  type="button"
                  className="btn btn-sm btn-ghost"
                  aria-label={t("wizard.affinity.addLabel")}
                  onClick={() =>
                    patch("affinity", {
                      labels: [...a.labels, {
                        key: keys[0] ?? "",
                        value: (keys[0] && labels?.[keys[0]]?.[0]) || "",
                      }],
                    })}
                >
                  +
                </button>
                {a.labels.length > 1
                  ? (
                    <button
                      type="button"
                      className="btn btn-sm btn-ghost"
                      aria-label={t("wizard.affinity.removeLabel", { n: i + 1 })}
                      onClick={() => patch("affinity", { labels: a.labels.filter((_, j) => j !== i) })}
                    >
                      −
                    </button>
                  )
                  : null}
              </div>
            ))}
            {errors.labels
              ? <span className="text-error text-sm block" role="alert">{errors.labels}</span>
              : (
                <p className="text-xs text-base-content/70">
                  {t("wizard.affinity.selector", { selector: joinLabels(a.labels) })}
                </p>
              )}
          </div>
        )
        : null}
    </div>
  );
}
