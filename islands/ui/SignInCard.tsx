/**
 * The card both sign-in forms share (spec 1 Login): a title, the form's fields, 'Login' disabled until the
 * fields are ready or while the request runs, and a refusal in the red banner above the card. `signIn`
 * makes the call and moves on when it succeeds; when it throws, the banner says why.
 */
import { type ReactNode, useState } from "react";
import { ErrorBanner } from "./ErrorBanner.tsx";
import { ApiClientError } from "../lib/request.ts";
import { t } from "../lib/i18n/t.ts";

export interface SignInCardProps {
  title: string;
  /** True when every required field is filled. */
  ready: boolean;
  signIn: () => Promise<void>;
  /** Message to show at once (e.g. an SSO callback that failed). */
  initialError?: string;
  children: ReactNode;
}

export function SignInCard({ title, ready, signIn, initialError, children }: SignInCardProps) {
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<{ message: string; detail: string; at: number } | null>(
    initialError ? { message: initialError, detail: "", at: 0 } : null,
  );

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setLoading(true);
    setError(null);
    try {
      await signIn();
    } catch (e) {
      const failure = e instanceof ApiClientError
        ? e
        : new ApiClientError(0, t("common.error.consoleUnreachable"), String(e));
      setError({ message: failure.message, detail: failure.detail, at: Date.now() });
      setLoading(false);
    }
  }

  return (
    <div className="w-full max-w-sm">
      {error
        ? (
          <div className="mb-4">
            <ErrorBanner
              message={error.message}
              detail={error.detail}
              id={error.at}
              onClose={() => setError(null)}
            />
          </div>
        )
        : null}
      <form className="card bg-base-100 shadow-xl" onSubmit={handleSubmit}>
        <div className="card-body gap-4">
          <h1 className="card-title text-2xl">{title}</h1>
          {children}
          <button className="btn btn-primary w-full" type="submit" disabled={!ready || loading}>
            {loading ? <span className="loading loading-spinner loading-sm" /> : null}
            {t("common.login.submit")}
          </button>
        </div>
      </form>
    </div>
  );
}
