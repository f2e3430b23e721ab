/**
 * The subscription of the License page (spec 3 §2.5, §7.2), entirely local: Deck never calls SUBNET. The
 * licence comes from the key activated on the page (kept in <data dir>/.deck/subnet-license, mode 0600) or
 * else from CONSOLE_SUBNET_LICENSE, and is verified offline (verify.ts) on every read, so an expiry
 * or a replaced key shows at once. Activation with SUBNET credentials would need the network: it is refused
 * with a message saying so, immediately.
 */
import type { SubscriptionInfo } from "../../lib/contract/license.ts";
import { ApiError } from "../http/errors.ts";
import { importLicenseKey, LicenseError, SUBNET_PUBLIC_KEY, verifyLicense } from "./verify.ts";
import { t } from "../../../islands/lib/i18n/t.ts";

export interface LicenseStoreOptions {
  /** CONSOLE_SUBNET_LICENSE ("" when unset). */
  configured: string;
  /** PEM file of an extra trusted key ("" when unset). */
  publicKeyFile: string;
  /** Where an activated key is kept. */
  file: string;
  now: () => number;
}

/** What the page shows: the subscription, or why the configured licence was not accepted. */
export interface LicenseState {
  info: SubscriptionInfo | null;
  /** Set when a licence is configured but invalid (expired, wrong signature, malformed), in the request's language. */
  problem?: string;
}

export class LicenseStore {
  #keys: Promise<CryptoKey[]> | null = null;

  constructor(private readonly options: LicenseStoreOptions) {}

  #trustedKeys(): Promise<CryptoKey[]> {
    this.#keys ??= (async () => {
      const keys = [await importLicenseKey(SUBNET_PUBLIC_KEY)];
      if (this.options.publicKeyFile) {
        keys.push(await importLicenseKey(await Deno.readTextFile(this.options.publicKeyFile)));
      }
      return keys;
    })();
    return this.#keys;
  }

  async #activated(): Promise<string> {
    try {
      return (await Deno.readTextFile(this.options.file)).trim();
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return "";
      throw error;
    }
  }

  /** The licence in force; never throws for a bad licence (it is reported as `problem`). */
  async read(): Promise<LicenseState> {
    const { info, problem } = await this.current();
    return problem ? { info, problem } : { info };
  }

  /** The licence in force with its key (what "Attach License" hands to a tenant); `key` is "" without a valid one. */
  async current(): Promise<LicenseState & { key: string }> {
    const license = (await this.#activated()) || this.options.configured.trim();
    if (!license) return { info: null, key: "" };
    try {
      return {
        info: await verifyLicense(license, await this.#trustedKeys(), this.options.now()),
        key: license,
      };
    } catch (error) {
      if (error instanceof LicenseError) {
        return { info: null, key: "", problem: t("settings.license.notAccepted", { reason: error.message }) };
      }
      throw error;
    }
  }

  /** A licence found elsewhere (a tenant's MINIO_SUBNET_LICENSE), verified with the same keys; null when not valid. */
  async verify(license: string): Promise<SubscriptionInfo | null> {
    if (!license.trim()) return null;
    try {
      return await verifyLicense(license.trim(), await this.#trustedKeys(), this.options.now());
    } catch (error) {
      if (error instanceof LicenseError) return null;
      throw error;
    }
  }

  /** GET /subscription/info: 404 "license not found" when there is none. */
  async info(): Promise<SubscriptionInfo> {
    const state = await this.read();
    if (!state.info) {
      throw ApiError.notFound(
        t("settings.license.notFound"),
        state.problem ?? t("settings.license.noneConfigured"),
      );
    }
    return state.info;
  }

  /** Verifies a pasted licence key and keeps it; refuses credential activation at once. */
  async validate(input: { license: string; email: string; password: string }): Promise<SubscriptionInfo> {
    const license = input.license.trim();
    if (!license) {
      if (input.email.trim() && input.password) {
        throw new ApiError(501, t("settings.license.networkRefused"), {
          detail: t("settings.license.networkRefusedDetail"),
        });
      }
      throw ApiError.badRequest(t("settings.license.keyOrAccount"));
    }
    let info: SubscriptionInfo;
    try {
      info = await verifyLicense(license, await this.#trustedKeys(), this.options.now());
    } catch (error) {
      if (error instanceof LicenseError) {
        throw ApiError.badRequest(t("settings.license.invalidKey"), error.message);
      }
      throw error;
    }
    const dir = this.options.file.slice(0, this.options.file.lastIndexOf("/"));
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = `${this.options.file}.tmp`;
    await Deno.writeTextFile(tmp, license.trim(), { mode: 0o600 });
    await Deno.rename(tmp, this.options.file);
    return info;
  }

  /** Refresh: SUBNET would renew the key; offline, the local key is read and verified again. */
  refresh(): Promise<SubscriptionInfo> {
    return this.info();
  }
}
