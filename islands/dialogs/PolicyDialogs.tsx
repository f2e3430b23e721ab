/**
 * Create Policy (name, and the policy built in the visual builder or written as JSON, validated as typed and
 * again by the server) and Info Policy (read-only view).
 */
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
      showSnackbar(`Policy ${trimmed} created`);
      onSaved(trimmed);
    });
  }
  return (
    <Dialog
      title="Create Policy"
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide="full"
      primary={{
        label: "Save",
        submit: true,
        disabled: trimmed === "" || duplicate || invalid || policy.trim() === "" || action.busy,
        onClick: save,
      }}
    >
      <TextField
        label="Policy Name"
        value={name}
        onChange={setName}
        error={duplicate ? "A policy with this name already exists" : undefined}
      />
      <PolicyEditor label="Write Policy" text={policy} onChange={setPolicy} rows={16} />
    </Dialog>
  );
}

export function PolicyInfoDialog({ policy, onClose }: { policy: PolicySummary | null; onClose: () => void }) {
  return (
    <Dialog
      title={policy ? `Policy: ${policy.name}` : "Policy"}
      open={policy !== null}
      onClose={onClose}
      wide
    >
      {policy
        ? <JsonEditor label="Policy" value={policy.policy} onChange={() => {}} readOnly mode="json" />
        : null}
    </Dialog>
  );
}
