/**
 * Kafka, Elasticsearch and NSQ targets: configured and validated like the others, but this server has no
 * client for them that could be verified against a real service here, so they never claim delivery. They
 * report Offline; with a queue directory their events wait on disk (up to the limit), without one they are
 * dropped and counted like any undeliverable event. A target that could not start (its queue directory
 * cannot be created, say) runs as one of these too, with the reason.
 */
import { type Delivery, DeliveryError, type Target, type TargetType } from "./target.ts";

export class UnsupportedTarget implements Target {
  constructor(
    readonly type: TargetType,
    readonly id: string,
    private readonly reason = `delivery to ${type} targets is not available in the embedded storage`,
  ) {}

  send(_batch: Delivery[]): Promise<void> {
    return Promise.reject(new DeliveryError(this.reason, 0));
  }

  isActive(): Promise<boolean> {
    return Promise.resolve(false);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
