/**
 * Operator sign-in (spec 1 Login, operator variant): 'Operator Login', one required 'JWT' field, 'Login'
 * disabled while empty or loading; refusals in the red banner above the card; success → '/'.
 */
import { useState } from "react";
import { SignInCard } from "./ui/SignInCard.tsx";
import { api, basePath } from "./lib/request.ts";
import { t } from "./lib/i18n/t.ts";

export default function OperatorLogin() {
  const [jwt, setJwt] = useState("");
  async function signIn() {
    await api.post("/api/v1/login/operator", { jwt });
    location.assign(basePath());
  }

  return (
    <SignInCard title={t("operator.login.title")} ready={!!jwt.trim()} signIn={signIn}>
      <label className="block">
        <span className="label-text block mb-1 text-sm font-bold">JWT</span>
        <textarea
          className="textarea w-full border-base-300 font-mono text-xs"
          name="jwt"
          rows={4}
          required
          aria-label="JWT"
          placeholder={t("operator.login.placeholder")}
          autoComplete="off"
          spellCheck={false}
          value={jwt}
          onChange={(e) => setJwt(e.target.value)}
        />
      </label>
    </SignInCard>
  );
}
