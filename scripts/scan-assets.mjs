#!/usr/bin/env node
// `npm install` runs this (postinstall): it copies the barcode decoder of /scan (zxing-wasm's
// reader, ZXing-C++ built to WebAssembly, MIT) from node_modules into public/scan/, so the page
// loads it from this origin, never from a CDN. Browsers with BarcodeDetector never fetch it.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { projectRoot } from "./lib/local.mjs";

const packageDir = join(projectRoot, "node_modules/zxing-wasm");
const target = join(projectRoot, "public/scan");

/** Package file → the name public/scan/scan.js loads it by (the wasm keeps its name: the script's locateFile asks for it). */
const FILES = {
  "dist/iife/reader/index.js": "zxing-reader.js",
  "dist/reader/zxing_reader.wasm": "zxing_reader.wasm",
};

mkdirSync(target, { recursive: true });
for (const [from, to] of Object.entries(FILES)) copyFileSync(join(packageDir, from), join(target, to));
console.log(`scan-assets: zxing-wasm's reader copied into public/scan/`);
