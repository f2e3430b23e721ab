/**
 * Create Policy (name, and the policy built in the visual builder or written as JSON, validated as typed and
 * again by the server) and Info Policy (read-only view).
 */
import { t } from "../lib/i18n/t.ts";
import { useState } from "react";
import type { PolicySummary } from "../../server/lib/contract/policies.ts";
import { policiesApi } from "../lib/api/policies.ts";
import { showSnackbar } from "../lib/notify.ts";
import { Dialog, useDialogAction } from "../ui/Dialog.tsx";
import { TextField } from "../ui/fields.tsx";
import { JsonEditor, jsonProblems } from "../ui/JsonEditor.tsx";
import { PolicyEditor } from "../ui/PolicyEditor.tsx";

const TEMPLATE = `{
  "Version": "2012-10-17",
  "Statement": [
    {
      "Effect": "Allow",
      "Action": ["s3:GetObject"],
      "Resource": ["arn:aws:s3:::bucket/*"]
    }
  ]
}`;

export function CreatePolicyDialog(
  { open, existing, onClose, onSaved }: {
    open: boolean;
    existing: string[];
    onClose: () => void;
    onSaved: (name: string) => void;
  },
) {
  const [name, setName] = useState("");
  const [policy, setPolicy] = useState(TEMPLATE);
  const action = useDialogAction();
  const trimmed = name.trim();
  const duplicate = existing.includes(trimmed);
  const invalid = jsonProblems(policy, "policy").length > 0;
  function save() {
    action.run(async () => {
      await policiesApi.save(trimmed, policy);
      showSnackbar(t("iam.policyDialog.created", { name: trimmed }));
      onSaved(trimmed);
    });
  }
  return (
    <Dialog
      title={t("iam.policies.create")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide="full"
      primary={{
        label: t("common.action.save"),
        submit: true,
        disabled: trimmed === "" || duplicate || invalid || policy.trim() === "" || action.busy,
        onClick: save,
      }}
    >
      <TextField
        label={t("iam.policyDialog.name")}
        value={name}
        onChange={setName}
        error={duplicate ? t("iam.policyDialog.duplicate") : undefined}
      />
      <PolicyEditor label={t("iam.policyDialog.write")} text={policy} onChange={setPolicy} rows={16} />
    </Dialog>
  );
}

export function PolicyInfoDialog({ policy, onClose }: { policy: PolicySummary | null; onClose: () => void }) {
  return (
    <Dialog
      title={policy ? t("iam.policyDialog.info", { name: policy.name }) : t("iam.word.policy")}
      open={policy !== null}
      onClose={onClose}
      wide
    >
      {policy
        ? (
          <JsonEditor
            label={t("iam.word.policy")}
            value={policy.policy}
            onChange={() => {}}
            readOnly
            mode="json"
          />
        )
        : null}
    </Dialog>
  );
}
