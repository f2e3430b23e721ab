/**
 * Operator sign-in (spec 1 Login, operator variant): 'Operator Login', one required 'JWT' field, 'Login'
 * disabled while empty or loading; refusals in the red banner above the card; success → '/'.
 */
import { useState } from "react";
import { ErrorBanner } from "./ui/ErrorBanner.tsx";
import { api, ApiClientError, basePath } from "./lib/api/request.ts";

export default function OperatorLogin() {
  const [jwt, setJwt] = useState("");
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<{ message: string; detail: string; at: number } | null>(null);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setLoading(true);
    setError(null);
    try {
      await api.post("/api/v1/login/operator", { jwt });
      location.assign(basePath());
    } catch (e) {
      const failure = e instanceof ApiClientError ? e : new ApiClientError(0, "The console cannot be reached", String(e));
      setError({ message: failure.message, detail: failure.detail, at: Date.now() });
      setLoading(false);
    }
  }

  return (
    <div className="w-full max-w-sm">
      {error ? <div className="mb-4"><ErrorBanner message={error.message} detail={error.detail} id={error.at} onClose={() => setError(null)} /></div> : null}
      <form className="card bg-base-100 shadow-xl" onSubmit={handleSubmit}>
        <div className="card-body gap-4">
          <h1 className="card-title text-2xl">Operator Login</h1>
          <label className="block">
            <span className="label-text block mb-1 text-sm font-bold">JWT</span>
            <textarea
              className="textarea w-full border-base-300 font-mono text-xs"
              name="jwt"
              rows={4}
              required
              aria-label="JWT"
              placeholder="Service account token"
              autoComplete="off"
              spellCheck={false}
              value={jwt}
              onChange={(e) => setJwt(e.target.value)}
            />
          </label>
          <button className="btn btn-primary w-full" type="submit" disabled={!jwt.trim() || loading}>
            {loading ? <span className="loading loading-spinner loading-sm" /> : null}
            Login
          </button>
        </div>
      </form>
    </div>
  );
}
