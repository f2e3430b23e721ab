/**
 * The remote tiers lifecycle transitions move versions to (minio-protocol §3.12), kept in
 * `<data>/.deck/tiers.json`; the admin API edits them (admin/tiers.ts), the tier backends read them.
 */
import { writeFileDurable } from "../fs/durable.ts";
import type { TierUsage } from "./usage.ts";

export type TierType = "s3" | "minio" | "gcs" | "azure";

/** One tier as madmin sends and lists it: its type and name, and its backend's section (S3, MinIO, GCS, Azure). */
export interface TierDoc {
  Version: string;
  Type: TierType;
  Name: string;
  [section: string]: unknown;
}

/** The configured tiers, read at start and saved durably whenever the admin API changes them. */
export class TierStore {
  /** What the store keeps on a tier (set by server.ts; lifecycle transitions put versions there). */
  usage: (name: string) => TierUsage = () => ({ versions: 0, objects: 0, bytes: 0 });

  private constructor(
    private readonly file: string,
    private readonly tmpDir: string,
    public tiers: TierDoc[],
  ) {}

  static async open(dataDir: string): Promise<TierStore> {
    const file = `${dataDir}/.deck/tiers.json`;
    const tiers = await Deno.readTextFile(file).then((t) => JSON.parse(t) as TierDoc[], () => []);
    return new TierStore(file, `${dataDir}/.deck/tmp`, tiers);
  }

  names(): string[] {
    return this.tiers.map((t) => t.Name);
  }

  async save(tiers: TierDoc[]): Promise<void> {
    await writeFileDurable(this.tmpDir, this.file, JSON.stringify(tiers));
    this.tiers = tiers;
  }
}
