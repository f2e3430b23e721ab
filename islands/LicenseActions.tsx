/**
 * The License page's operator-mode actions (spec 3 §2.5, §4, §5): the Activate link opening the Activate
 * SUBNET License dialog (a licence key, or email and password), and Refresh Licence. A busy flag prevents a
 * double submit; the fields clear on success and on error; success reloads the page with the new licence.
 * Deck works offline, so credential activation answers at once that it needs network access.
 */
import { useState } from "react";
import { licenseApi } from "./lib/api/license.ts";
import { Dialog, useDialogAction } from "./ui/Dialog.tsx";
import { TextField } from "./ui/fields.tsx";
import { t } from "./lib/i18n/t.ts";

export interface LicenseActionsProps {
  hasLicense: boolean;
  signUpUrl: string;
}

function ActivateDialog(
  { open, onClose, signUpUrl }: { open: boolean; onClose: () => void; signUpUrl: string },
) {
  const [license, setLicense] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const action = useDialogAction();
  const submit = (input: { license?: string; email?: string; password?: string }) => {
    action.run(async () => {
      try {
        await licenseApi.validate(input);
        location.reload();
      } finally {
        setLicense("");
        setEmail("");
        setPassword("");
      }
    });
  };
  return (
    <Dialog
      title={t("settings.license.activateTitle")}
      open={open}
      onClose={onClose}
      message={action.message}
      onMessageDone={action.clear}
      wide
    >
      <section className="mb-6">
        <h3 className="font-bold mb-2">{t("settings.license.withKey")}</h3>
        <label className="flex flex-col gap-1 text-sm">
          <span>{t("settings.license.key")}</span>
          <textarea
            className="textarea w-full font-mono text-xs h-28"
            value={license}
            onChange={(e) => setLicense(e.target.value)}
            aria-label={t("settings.license.key")}
          />
        </label>
        <div className="flex justify-end mt-2">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={!license.trim() || action.busy}
            onClick={() => submit({ license })}
          >
            {t("settings.license.activate")}
          </button>
        </div>
      </section>
      <section>
        <h3 className="font-bold mb-2">{t("settings.license.withAccount")}</h3>
        <p className="text-sm opacity-80 mb-2">{t("settings.license.networkNeeded")}</p>
        <TextField
          label={t("settings.license.email")}
          value={email}
          onChange={setEmail}
          autoComplete="username"
        />
        <TextField
          label={t("settings.license.password")}
          type="password"
          value={password}
          onChange={setPassword}
          autoComplete="current-password"
        />
        <div className="flex justify-end gap-2 mt-2">
          <a className="btn btn-sm" href={signUpUrl} target="_blank" rel="noopener noreferrer">
            {t("settings.license.signUp")}
          </a>
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={!email.trim() || !password || action.busy}
            onClick={() => submit({ email, password })}
          >
            {t("settings.license.activate")}
          </button>
        </div>
      </section>
    </Dialog>
  );
}

export default function LicenseActions({ hasLicense, signUpUrl }: LicenseActionsProps) {
  const [open, setOpen] = useState(false);
  const [refreshing, setRefreshing] = useState(false);
  const refresh = async () => {
    setRefreshing(true);
    try {
      await licenseApi.refresh();
      location.reload();
    } catch {
      // Spec 3 §8: licence refresh failures are silent.
    } finally {
      setRefreshing(false);
    }
  };
  return (
    <div className="flex flex-wrap gap-2">
      {hasLicense
        ? (
          <button type="button" className="btn btn-sm" disabled={refreshing} onClick={refresh}>
            {t("settings.license.refresh")}
          </button>
        )
        : (
          <button type="button" className="btn btn-sm btn-primary" onClick={() => setOpen(true)}>
            {t("settings.license.activate")}
          </button>
        )}
      <ActivateDialog open={open} onClose={() => setOpen(false)} signUpUrl={signUpUrl} />
    </div>
  );
}
