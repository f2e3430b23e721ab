/**
 * Change Password (own; spec 1 §5: all three fields for Save, 'New passwords don't match', at least 8
 * characters) and Change User Password (an administrator sets another user's secret).
 */
import { t } from "../lib/i18n/t.ts";
import { tNode } from "../lib/i18n/rich.tsx";
import { useState } from "react";
import { LONG_PASSWORD, passwordProblem, SHORT_PASSWORD } from "../../server/lib/contract/account.ts";
import { accountApi } from "../lib/api/account.ts";
import { usersApi } from "../lib/api/users.ts";
import { showSnackbar } from "../lib/notify.ts";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { TextField } from "../ui/fields.tsx";

/** What is wrong with a new secret key, in the language in force, or "" (the shared rule of the contract). */
export function secretProblem(secret: string): string {
  const problem = passwordProblem(secret);
  if (problem === SHORT_PASSWORD) return t("iam.password.short");
  if (problem === LONG_PASSWORD) return t("iam.password.long");
  return problem;
}

/** The first rule a new password breaks, or "" (own change: match first, then length). */
export function newPasswordProblem(next: string, confirm: string): string {
  if (next !== confirm) return t("iam.password.differ");
  return secretProblem(next);
}

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [current, setCurrent] = useState("");
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const action = useDialogAction();
  const ready = current !== "" && next !== "" && confirm !== "";
  function save() {
    const problem = newPasswordProblem(next, confirm);
    if (problem) return action.setMessage({ message: problem, type: "error" });
    action.run(async () => {
      await accountApi.changePassword(current, next);
      showSnackbar(t("iam.password.changed"));
      onClose();
    });
  }
  return (
    <Dialog
      title={t("iam.password.change")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: !ready || action.busy,
        onClick: save,
      }}
    >
      <TextField
        label={t("iam.password.current")}
        type="password"
        value={current}
        onChange={setCurrent}
        autoComplete="current-password"
      />
      <TextField
        label={t("iam.password.new")}
        type="password"
        value={next}
        onChange={setNext}
        autoComplete="new-password"
      />
      <TextField
        label={t("iam.password.again")}
        type="password"
        value={confirm}
        onChange={setConfirm}
        autoComplete="new-password"
      />
    </Dialog>
  );
}

export function ChangeUserPasswordDialog(
  { open, user, onClose }: { open: boolean; user: string; onClose: () => void },
) {
  const [next, setNext] = useState("");
  const [confirm, setConfirm] = useState("");
  const action = useDialogAction();
  function save() {
    const problem = secretProblem(next);
    if (problem) return action.setMessage({ message: problem, type: "error" });
    action.run(async () => {
      await usersApi.changePassword(user, next);
      showSnackbar(t("iam.password.userChanged", { user }));
      onClose();
    });
  }
  return (
    <Dialog
      title={t("iam.password.changeUser")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: confirm === "" || confirm !== next || action.busy,
        onClick: save,
      }}
    >
      <p className="mb-3 text-sm">
        {tNode("iam.password.for", { user: <b>{user}</b> })}
      </p>
      <TextField
        label={t("iam.password.new")}
        type="password"
        value={next}
        onChange={setNext}
        autoComplete="new-password"
      />
      <TextField
        label={t("iam.password.again")}
        type="password"
        value={confirm}
        onChange={setConfirm}
        autoComplete="new-password"
      />
    </Dialog>
  );
}
