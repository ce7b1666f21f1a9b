import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Applies only migrations not yet recorded, so running it before every test file is cheap.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
