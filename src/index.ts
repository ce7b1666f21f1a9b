import { deleteExpiredClaims } from "./accounts/oauthClaims";
import { createApp } from "./app";
import type { Bindings } from "./bindings";
import { createDb } from "./platform/db";
import { cleanUpExports } from "./tools/bucketCleanup";

export { UserAccounting } from "./platform/userAccounting";

const app = createApp();

export default {
  fetch: app.fetch,
  /** The cron trigger of wrangler.toml: the one cleanup of the EXPORTS bucket (cleanUpExports) and of spent OAuth claims. */
  async scheduled(controller, env, ctx) {
    ctx.waitUntil(
      cleanUpExports(env, new Date(controller.scheduledTime)).then((removed) => console.log(JSON.stringify({ exportCleanup: removed }))),
    );
    ctx.waitUntil(
      deleteExpiredClaims(createDb(env.DB), controller.scheduledTime).then((removed) =>
        console.log(JSON.stringify({ oauthClaimCleanup: removed })),
      ),
    );
  },
} satisfies ExportedHandler<Bindings>;
