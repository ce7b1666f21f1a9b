import { createApp } from "./app";
import type { Bindings } from "./env";
import { cleanUpExports } from "./tools/bucketCleanup";

export { UserAccounting } from "./platform/userAccounting";

const app = createApp();

export default {
  fetch: app.fetch,
  /** The cron trigger of wrangler.toml: the one cleanup of the EXPORTS bucket (cleanUpExports). */
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(
      cleanUpExports(env, new Date(controller.scheduledTime)).then((removed) => console.log(JSON.stringify({ exportCleanup: removed }))),
    );
  },
} satisfies ExportedHandler<Bindings>;
