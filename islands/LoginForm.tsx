/**
 * The sign-in form (spec 1 Login): 'Console Login', 'Enter Username', 'Enter Password', 'Login' disabled
 * while a field is empty or a request runs; failures in the red banner above the card; success → '/'.
 */
import { useEffect, useState } from "react";
import { ErrorBanner } from "./ui/ErrorBanner.tsx";
import { api, ApiClientError, basePath } from "./lib/api/request.ts";

export interface LoginFormProps {
  /** Message to show at once (e.g. an SSO callback that failed). */
  initialError?: string;
}

export default function LoginForm({ initialError }: LoginFormProps) {
  const [accessKey, setAccessKey] = useState("");
  const [secretKey, setSecretKey] = useState("");
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<{ message: string; detail: string; at: number } | null>(
    initialError ? { message: initialError, detail: "", at: 0 } : null,
  );

  // Being on the sign-in page means signed out: forget the remembered user name (spec 1 §4, Logout).
  useEffect(() => localStorage.removeItem("userLoggedIn"), []);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setLoading(true);
    setError(null);
    try {
      await api.post("/api/v1/login", { accessKey, secretKey });
      localStorage.setItem("userLoggedIn", new TextEncoder().encode(accessKey).toBase64());
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
          <h1 className="card-title text-2xl">Console Login</h1>
          <label className="block">
            <span className="block mb-1 text-sm font-bold">Username</span>
            <input
              className="input w-full border-base-300"
              name="accessKey"
              autoComplete="username"
              placeholder="Enter Username"
              value={accessKey}
              onChange={(e) => setAccessKey(e.target.value)}
            />
          </label>
          <label className="block">
            <span className="block mb-1 text-sm font-bold">Password</span>
            <input
              className="input w-full border-base-300"
              name="secretKey"
              type="password"
              autoComplete="current-password"
              placeholder="Enter Password"
              value={secretKey}
              onChange={(e) => setSecretKey(e.target.value)}
            />
          </label>
          <button className="btn btn-primary w-full" type="submit" disabled={!accessKey || !secretKey || loading}>
            {loading ? <span className="loading loading-spinner loading-sm" /> : null}
            Login
          </button>
        </div>
      </form>
    </div>
  );
}
