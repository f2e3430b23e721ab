/**
 * Create Service Account ('Restrict with policy' → JSON editor; 'Customize Credentials' → Access Key and
 * Secret Key) and the new-credentials display: the only place a secret is ever shown, with a JSON download.
 * With an external identity provider the credentials are not shown; the user is told to log in through it.
 */
import { t } from "../lib/i18n/t.ts";
import { useState } from "react";
import type { ServiceAccountCredentials } from "../../server/lib/contract/account.ts";
import { passwordProblem } from "../../server/lib/contract/account.ts";
import { accountApi } from "../lib/api/account.ts";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { Switch, TextField } from "../ui/fields.tsx";
import { JsonEditor, jsonProblems } from "../ui/JsonEditor.tsx";

export function CreateServiceAccountDialog({ open, user, onClose, onCreated }: {
  open: boolean;
  /** Create for this user; omitted → for the signed-in account. */
  user?: string;
  onClose: () => void;
  onCreated: (credentials: ServiceAccountCredentials) => void;
}) {
  const [restrict, setRestrict] = useState(false);
  const [policy, setPolicy] = useState("");
  const [custom, setCustom] = useState(false);
  const [accessKey, setAccessKey] = useState("");
  const [secretKey, setSecretKey] = useState("");
  const action = useDialogAction();
  const policyBad = restrict && policy.trim() !== "" && jsonProblems(policy, "policy").length > 0;
  const keysMissing = custom && (accessKey.trim() === "" || secretKey === "");
  const secretProblem = custom && secretKey !== "" && passwordProblem(secretKey)
    ? t("iam.serviceAccount.secretLength")
    : undefined;
  function create() {
    action.run(async () => {
      const credentials = await accountApi.createServiceAccount({
        user,
        policy: restrict ? policy : "",
        ...(custom ? { accessKey: accessKey.trim(), secretKey } : {}),
      });
      onCreated(credentials);
    });
  }
  return (
    <Dialog
      title={t("iam.serviceAccount.createTitle")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide
      primary={{
        label: t("common.action.create"),
        submit: true,
        disabled: action.busy || policyBad || keysMissing || !!secretProblem,
        onClick: create,
      }}
    >
      <Switch
        label={t("iam.serviceAccount.restrict")}
        checked={restrict}
        onChange={setRestrict}
        description={t("iam.serviceAccount.restrictHelp")}
      />
      {restrict
        ? (
          <JsonEditor
            label={t("iam.word.policy")}
            value={policy}
            onChange={setPolicy}
            mode="policy"
            rows={12}
          />
        )
        : null}
      <Switch
        label={t("iam.serviceAccount.customize")}
        checked={custom}
        onChange={setCustom}
        description={t("iam.serviceAccount.customizeHelp")}
      />
      {custom
        ? (
          <>
            <TextField label={t("iam.word.accessKey")} value={accessKey} onChange={setAccessKey} />
            <TextField
              label={t("iam.word.secretKey")}
              type="password"
              value={secretKey}
              onChange={setSecretKey}
              autoComplete="new-password"
              error={secretProblem}
            />
          </>
        )
        : null}
    </Dialog>
  );
}

/** Offers the credentials as a JSON file, built in the browser (nothing goes back to the server). */
function download(credentials: ServiceAccountCredentials) {
  const url = URL.createObjectURL(
    new Blob([
      JSON.stringify({ accessKey: credentials.accessKey, secretKey: credentials.secretKey }, null, 2),
    ], { type: "application/json" }),
  );
  const a = Object.assign(document.createElement("a"), { href: url, download: "credentials.json" });
  a.click();
  URL.revokeObjectURL(url);
}

export function NewCredentialsDialog(
  { credentials, idp, onClose }: {
    credentials: ServiceAccountCredentials | null;
    idp?: boolean;
    onClose: () => void;
  },
) {
  return (
    <Dialog
      title={t("iam.serviceAccount.newTitle")}
      open={credentials !== null}
      onClose={onClose}
      actions={credentials && !idp
        ? (
          <button type="button" className="btn btn-primary" onClick={() => download(credentials)}>
            {t("common.action.download")}
          </button>
        )
        : null}
    >
      {idp
        ? (
          <p>
            {t("iam.serviceAccount.idp")}
          </p>
        )
        : credentials
        ? (
          <div data-testid="new-credentials">
            <p className="mb-3 text-sm">
              {t("iam.serviceAccount.copyNow")}
            </p>
            <TextField label={t("iam.word.accessKey")} value={credentials.accessKey} readOnly />
            <TextField label={t("iam.word.secretKey")} value={credentials.secretKey} readOnly />
          </div>
        )
        : null}
    </Dialog>
  );
}
