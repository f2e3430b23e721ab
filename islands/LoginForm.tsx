/**
 * The sign-in form (spec 1 Login): 'Console Login', 'Enter Username', 'Enter Password', 'Login' disabled
 * while a field is empty or a request runs; failures in the red banner above the card; success → '/'.
 */
import { useEffect, useState } from "react";
import { SignInCard } from "./ui/SignInCard.tsx";
import { api, basePath } from "./lib/request.ts";
import { t } from "./lib/i18n/t.ts";

export interface LoginFormProps {
  /** Message to show at once (e.g. an SSO callback that failed). */
  initialError?: string;
}

export default function LoginForm({ initialError }: LoginFormProps) {
  const [accessKey, setAccessKey] = useState("");
  const [secretKey, setSecretKey] = useState("");

  // Being on the sign-in page means signed out: forget the remembered user name (spec 1 §4, Logout).
  useEffect(() => localStorage.removeItem("userLoggedIn"), []);

  async function signIn() {
    await api.post("/api/v1/login", { accessKey, secretKey });
    localStorage.setItem("userLoggedIn", new TextEncoder().encode(accessKey).toBase64());
    location.assign(basePath());
  }

  return (
    <SignInCard
      title={t("common.login.title")}
      ready={!!accessKey && !!secretKey}
      signIn={signIn}
      initialError={initialError}
    >
      <label className="block">
        <span className="block mb-1 text-sm font-bold">{t("common.login.username")}</span>
        <input
          className="input w-full border-base-300"
          name="accessKey"
          autoComplete="username"
          placeholder={t("common.login.usernamePlaceholder")}
          value={accessKey}
          onChange={(e) => setAccessKey(e.target.value)}
        />
      </label>
      <label className="block">
        <span className="block mb-1 text-sm font-bold">{t("common.login.password")}</span>
        <input
          className="input w-full border-base-300"
          name="secretKey"
          type="password"
          autoComplete="current-password"
          placeholder={t("common.login.passwordPlaceholder")}
          value={secretKey}
          onChange={(e) => setSecretKey(e.target.value)}
        />
      </label>
    </SignInCard>
  );
}
