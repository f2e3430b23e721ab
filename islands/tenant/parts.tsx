/** Small parts shared by the operator islands: the health dot and the typed-name confirmation dialog. */
import { useState } from "react";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { TextField } from "../ui/fields.tsx";
import { type MessageKey, t } from "../lib/i18n/t.ts";

const HEALTH_CLASS: Record<string, string> = { green: "bg-success", yellow: "bg-warning", red: "bg-error" };

/** Health colour: red, yellow, green, else grey (spec 3 §4). */
export function HealthDot({ status }: { status?: string }) {
  const known = status && HEALTH_CLASS[status];
  // operator.health.green, operator.health.yellow, operator.health.red, operator.health.unknown
  const label = t("operator.health.label", {
    status: t((known ? `operator.health.${status}` : "operator.health.unknown") as MessageKey),
  });
  return (
    <span
      className={`inline-block w-3 h-3 rounded-full shrink-0 ${known || "bg-base-300"}`}
      role="img"
      aria-label={label}
      title={label}
      data-health={known ? status : "grey"}
    />
  );
}

/**
 * Delete confirmation that needs the exact name typed (tenants and pods, spec 3 §2.2, §5): Delete stays
 * disabled until the text matches; a mismatch shows 'Tenant name is incorrect'.
 */
export function TypedDeleteDialog({ title, name, open, onClose, onDelete, children }: {
  title: string;
  name: string;
  open: boolean;
  onClose: () => void;
  onDelete: (typed: string) => Promise<void>;
  children: React.ReactNode;
}) {
  const [typed, setTyped] = useState("");
  const action = useDialogAction();
  const close = () => (setTyped(""), onClose());
  const mismatch = typed !== "" && typed !== name;
  return (
    <Dialog
      title={title}
      open={open}
      onClose={close}
      message={action.message}
      onMessageDone={action.clear}
      cancelDisabled={action.busy}
      primary={{
        label: t("common.action.delete"),
        tone: "error",
        busy: action.busy,
        disabled: typed !== name,
        onClick: () => action.run(async () => (await onDelete(typed), setTyped(""), onClose())),
      }}
    >
      <div className="mb-3">{children}</div>
      <TextField
        label={t("operator.word.typeToContinue", { text: name })}
        value={typed}
        onChange={setTyped}
        error={mismatch ? t("operator.tenants.nameIncorrect") : undefined}
      />
    </Dialog>
  );
}
