/**
 * Change Password (own; spec 1 §5: all three fields for Save, 'New passwords don't match', at least 8
 * characters) and Change User Password (an administrator sets another user's secret).
 */
import { useState } from "react";
import { passwordProblem } from "../../server/lib/contract/account.ts";
import { accountApi } from "../lib/api/account.ts";
import { usersApi } from "../lib/api/users.ts";
import { showSnackbar } from "../lib/notify.ts";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { TextField } from "../ui/fields.tsx";

export const PASSWORDS_DIFFER = "New passwords don't match";

/** The first rule a new password breaks, or "" (own change: match first, then length). */
export function newPasswordProblem(next: string, confirm: string): string {
  if (next !== confirm) return PASSWORDS_DIFFER;
  return passwordProblem(next);
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
      showSnackbar("Password changed successfully");
      onClose();
    });
  }
  return (
    <Dialog
      title="Change Password"
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{ label: "Save", submit: true, disabled: !ready || action.busy, onClick: save }}
    >
      <TextField
        label="Current Password"
        type="password"
        value={current}
        onChange={setCurrent}
        autoComplete="current-password"
      />
      <TextField
        label="New Password"
        type="password"
        value={next}
        onChange={setNext}
        autoComplete="new-password"
      />
      <TextField
        label="Type New Password Again"
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
    const problem = passwordProblem(next);
    if (problem) return action.setMessage({ message: problem, type: "error" });
    action.run(async () => {
      await usersApi.changePassword(user, next);
      showSnackbar(`Password of ${user} changed`);
      onClose();
    });
  }
  return (
    <Dialog
      title="Change User Password"
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      cancel={false}
      primary={{
        label: "Save",
        submit: true,
        disabled: confirm === "" || confirm !== next || action.busy,
        onClick: save,
      }}
    >
      <p className="mb-3 text-sm">
        Change password for: <b>{user}</b>
      </p>
      <TextField
        label="New Password"
        type="password"
        value={next}
        onChange={setNext}
        autoComplete="new-password"
      />
      <TextField
        label="Type New Password Again"
        type="password"
        value={confirm}
        onChange={setConfirm}
        autoComplete="new-password"
      />
    </Dialog>
  );
}
