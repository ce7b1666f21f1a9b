#!/usr/bin/env node
// `npm install` runs this (postinstall): it puts the API reference's browser bundle, the one file
// of @scalar/api-reference that /docs serves, into public/docs/assets/. Installing the package
// itself would pull its ~280 dependencies (Vue, editors, icons, ~300 MB), which that prebuilt
// bundle already contains. The package, version and the file's sha512 are pinned in
// src/faces/docsBundle.json, which the Worker reads too; a file that does not match is refused.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "./lib/local.mjs";

const pin = JSON.parse(readFileSync(join(projectRoot, "src/faces/docsBundle.json"), "utf8"));
const assetsDir = join(projectRoot, "public/docs/assets");
const bundleName = `scalar-api-reference-${pin.version}.js`;
const spec = `${pin.package}@${pin.version}`;

const integrityOf = (path) => `sha512-${createHash("sha512").update(readFileSync(path)).digest("base64")}`;

function run(command, args) {
  const result = spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed: ${result.error?.message ?? result.stderr.trim()}`);
  return result.stdout;
}

/** The pinned file out of the package's tarball, which npm fetches (or takes from its cache). */
function fetchBundle(workDir) {
  const [{ filename }] = JSON.parse(run("npm", ["pack", spec, "--json", "--pack-destination", workDir]));
  run("tar", ["-xzf", join(workDir, filename), "-C", workDir, `package/${pin.file}`]);
  const extracted = join(workDir, "package", pin.file);
  const integrity = integrityOf(extracted);
  if (integrity !== pin.integrity) {
    throw new Error(`${pin.file} of ${spec} is ${integrity}, not the ${pin.integrity} that src/faces/docsBundle.json pins`);
  }
  return extracted;
}

/** Earlier versions' bundles would otherwise be deployed with the assets. */
function removeOtherVersions() {
  for (const name of readdirSync(assetsDir)) {
    if (name.startsWith("scalar-api-reference-") && name !== bundleName) rmSync(join(assetsDir, name));
  }
}

const target = join(assetsDir, bundleName);
if (!existsSync(target) || integrityOf(target) !== pin.integrity) {
  const workDir = mkdtempSync(join(tmpdir(), "rgc-docs-bundle-"));
  try {
    mkdirSync(assetsDir, { recursive: true });
    removeOtherVersions();
    copyFileSync(fetchBundle(workDir), target);
    console.log(`docs-bundle: public/docs/assets/${bundleName} from ${spec}`);
  } catch (error) {
    console.error(`docs-bundle: could not put the /docs bundle in place: ${error.message}`);
    process.exitCode = 1;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
