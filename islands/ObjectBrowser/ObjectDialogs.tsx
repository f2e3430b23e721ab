/**
 * The object page's dialogs (spec 3 §4-§5): set retention policy with its full rule set, set legal hold,
 * add new tag (key and value non-blank), delete tag confirmation, and delete object.
 */
import { useState } from "react";
import type { ObjectDetail } from "../../server/lib/contract/objects.ts";
import { objectsApi } from "../lib/api/objects.ts";
import { ConfirmDialog, Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { Switch, TextField } from "../ui/fields.tsx";
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";

type Mode = "governance" | "compliance" | "";

export interface RetentionForm {
  enabled: boolean;
  mode: Mode;
  /** yyyy-mm-dd */
  date: string;
}

/** The retention modal's rules (spec 3 §4), pure so they are easy to test. */
export function retentionRules(current: Mode, form: RetentionForm, saving: boolean) {
  return {
    /** The Enabled/Disabled switch shows only for governance or no mode. */
    showStatus: current === "governance" || current === "",
    /** The type cannot change once the object has one. */
    typeLocked: current !== "",
    dateEnabled: form.enabled && form.mode !== "",
    saveDisabled: saving || (form.enabled && form.mode === "") || (form.enabled && form.date === ""),
    /** Saving disabled on governance removes retention; enabled (or with another mode) sets it. */
    action: !form.enabled ? (current === "governance" ? "remove" as const : "none" as const) : "set" as const,
  };
}

/** The retention date as saved: the end of the chosen day, UTC (spec 3 §9, 23:59:59). */
export const endOfDayUtc = (day: string) => `${day}T23:59:59Z`;

export function RetentionDialog(
  { bucket, detail, open, onClose, onSaved }: {
    bucket: string;
    detail: ObjectDetail;
    open: boolean;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const current: Mode = detail.retention_mode ?? "";
  const initial: RetentionForm = {
    enabled: true,
    mode: current,
    date: detail.retention_until_date?.slice(0, 10) ?? "",
  };
  const [form, setForm] = useState<RetentionForm>(initial);
  const action = useDialogAction();
  const rules = retentionRules(current, form, action.busy);
  const set = (change: Partial<RetentionForm>) => setForm((f) => ({ ...f, ...change }));
  const save = () =>
    action.run(async () => {
      if (rules.action === "remove") await objectsApi.removeRetention(bucket, detail.name, detail.version_id);
      if (rules.action === "set") {
        await objectsApi.setRetention(bucket, detail.name, detail.version_id, {
          mode: form.mode as "governance" | "compliance",
          expires: endOfDayUtc(form.date),
        });
      }
      onSaved();
    });
  return (
    <Dialog
      title={t("objects.retention.title")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      actions={
        <>
          <button
            type="button"
            className="btn"
            onClick={() => set({ mode: current ? current : "", date: "" })}
          >
            {t("common.action.reset")}
          </button>
          <button type="button" className="btn btn-primary" disabled={rules.saveDisabled} onClick={save}>
            {t("common.action.save")}
          </button>
        </>
      }
    >
      {rules.showStatus
        ? (
          <Switch
            label={t("common.word.status")}
            checked={form.enabled}
            onChange={(enabled) => set({ enabled })}
            description={form.enabled ? t("common.word.enabled") : t("common.word.disabled")}
          />
        )
        : null}
      <fieldset className="mb-3" disabled={rules.typeLocked}>
        <legend className="text-sm font-bold mb-1">{t("common.word.type")}</legend>
        {(["governance", "compliance"] as const).map((mode) => (
          <label key={mode} className="flex items-center gap-2 text-sm mb-1 cursor-pointer">
            <input
              type="radio"
              name="retention-type"
              className="radio radio-sm"
              checked={form.mode === mode}
              onChange={() =>
                set({ mode })}
            />
            {mode === "governance" ? t("objects.retention.governance") : t("objects.retention.compliance")}
          </label>
        ))}
      </fieldset>
      <label className="block mb-3">
        <span className="block mb-1 text-sm font-bold">{t("objects.retention.date")}</span>
        <input
          type="date"
          className="input border-base-300"
          aria-label={t("objects.retention.dateLabel")}
          value={form.date}
          disabled={!rules.dateEnabled}
          onChange={(e) => set({ date: e.target.value })}
        />
      </label>
    </Dialog>
  );
}

export function LegalHoldDialog(
  { bucket, detail, open, onClose, onSaved }: {
    bucket: string;
    detail: ObjectDetail;
    open: boolean;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const [on, setOn] = useState(detail.legal_hold_status === "ON");
  const action = useDialogAction();
  return (
    <Dialog
      title={t("objects.legalHold.title")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{
        label: t("common.action.save"),
        disabled: action.busy,
        onClick: () =>
          action.run(
            async () => (await objectsApi.setLegalHold(
              bucket,
              detail.name,
              detail.version_id,
              on ? "enabled" : "disabled",
            ),
              onSaved()),
          ),
      }}
    >
      <Switch
        label={t("objects.legalHold.status")}
        checked={on}
        onChange={setOn}
        description={on ? t("objects.legalHold.onHint") : t("common.word.off")}
      />
    </Dialog>
  );
}

export function AddTagDialog(
  { bucket, detail, open, onClose, onSaved }: {
    bucket: string;
    detail: ObjectDetail;
    open: boolean;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const action = useDialogAction();
  const valid = key.trim() !== "" && value.trim() !== "";
  const save = () =>
    action.run(async () => {
      await objectsApi.setTags(bucket, detail.name, detail.version_id, {
        ...(detail.tags ?? {}),
        [key.trim()]: value.trim(),
      });
      setKey("");
      setValue("");
      onSaved();
    });
  return (
    <Dialog
      title={t("objects.tags.addTitle")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      primary={{ label: t("common.action.save"), disabled: !valid || action.busy, onClick: save }}
    >
      <TextField
        label={t("objects.tags.key")}
        value={key}
        onChange={setKey}
        placeholder={t("objects.tags.keyPlaceholder")}
      />
      <TextField
        label={t("objects.tags.label")}
        value={value}
        onChange={setValue}
        placeholder={t("objects.tags.labelPlaceholder")}
      />
    </Dialog>
  );
}

export function DeleteTagDialog(
  { bucket, detail, tag, onClose, onSaved }: {
    bucket: string;
    detail: ObjectDetail;
    tag: string | null;
    onClose: () => void;
    onSaved: () => void;
  },
) {
  return (
    <ConfirmDialog
      title={t("objects.tags.deleteTitle")}
      open={tag !== null}
      onClose={onClose}
      onConfirm={async () => {
        const { [tag!]: _gone, ...rest } = detail.tags ?? {};
        await objectsApi.setTags(bucket, detail.name, detail.version_id, rest);
        onSaved();
      }}
    >
      {tNode("objects.tags.deleteConfirm", {
        tag: <strong className="wrap-anywhere" translate="no">{tag} : {detail.tags?.[tag ?? ""]}</strong>,
      })}
    </ConfirmDialog>
  );
}
