#!/usr/bin/env node
// `npm run admin -- <command>`: the operator API for a terminal user (docs/operating.md; the commands are in scripts/lib/adminCli.mjs). Exit codes: 0 done, 1 server error, 2 usage.
import { runAdminCli } from "./lib/adminCli.mjs";

process.exitCode = await runAdminCli(process.argv.slice(2));
