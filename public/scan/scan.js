// The /scan page's script (src/faces/pages/scan.ts): reads a JAN/EAN barcode with the camera and
// sends it through the page's own code form, which the server answers. The browser's
// BarcodeDetector where it reads EAN; else zxing-wasm's reader (ZXing-C++ in WebAssembly, MIT),
// served from this origin (public/scan/, copied by scripts/scan-assets.mjs) and loaded only then.
// Without a camera the typed-code form does the same.
"use strict";

(() => {
  const section = document.getElementById("camera-section");
  const form = document.getElementById("code-form");
  const input = document.getElementById("code");
  const video = document.getElementById("camera");
  const status = document.getElementById("camera-status");
  const button = document.getElementById("start-camera");
  if (!section || !form || !input || !video || !button) return;

  /** Only a code whose check digit is right is sent: a misread bar never reaches the search. */
  function checkDigitHolds(code) {
    if (!/^(\d{8}|\d{13})$/.test(code)) return false;
    const digits = [...code].map(Number);
    const check = digits.pop();
    const sum = digits.reverse().reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 3 : 1), 0);
    return (10 - (sum % 10)) % 10 === check;
  }

  /** BarcodeDetector's reader, where the browser has one that knows EAN. */
  async function nativeReader() {
    if (!("BarcodeDetector" in window)) return null;
    const formats = await window.BarcodeDetector.getSupportedFormats();
    if (!formats.includes("ean_13")) return null;
    const detector = new window.BarcodeDetector({ formats: ["ean_13", "ean_8"] });
    return async (source) => (await detector.detect(source)).map((found) => found.rawValue);
  }

  const loadScript = (src) =>
    new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`${src} did not load`));
      document.head.append(script);
    });

  /** zxing-wasm's reader over the video's current frame; its .wasm from /scan/, never its default CDN. */
  async function wasmReader() {
    await loadScript("/scan/zxing-reader.js");
    const zxing = window.ZXingWASM;
    await zxing.prepareZXingModule({ overrides: { locateFile: (path) => `/scan/${path}` }, fireImmediately: true });
    const canvas = document.createElement("canvas");
    const context = canvas.getContext("2d", { willReadFrequently: true });
    return async (source) => {
      canvas.width = source.videoWidth;
      canvas.height = source.videoHeight;
      context.drawImage(source, 0, 0);
      const frame = context.getImageData(0, 0, canvas.width, canvas.height);
      const found = await zxing.readBarcodes(frame, { formats: ["EAN13", "EAN8"], tryHarder: true, maxNumberOfSymbols: 1 });
      return found.filter((result) => result.isValid).map((result) => result.text);
    };
  }

  let stream = null;

  function stop() {
    if (stream) for (const track of stream.getTracks()) track.stop();
    stream = null;
    video.srcObject = null;
    video.parentElement.hidden = true;
    button.textContent = section.dataset.start;
  }

  /** Reads frames until a code with a right check digit shows, then sends it as if typed. */
  async function readUntilFound(read) {
    while (stream) {
      if (video.readyState >= 2) {
        const code = (await read(video)).find(checkDigitHolds);
        if (code) {
          stop();
          input.value = code;
          form.requestSubmit();
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  async function start() {
    try {
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
      video.srcObject = stream;
      video.parentElement.hidden = false;
      await video.play();
      button.textContent = section.dataset.stop;
      const read = (await nativeReader()) ?? (await wasmReader());
      section.dataset.reader = read ? "ready" : "";
      await readUntilFound(read);
    } catch (error) {
      stop();
      status.textContent = section.dataset.unavailable;
      section.dataset.error = String(error && error.message ? error.message : error);
    }
  }

  if (!navigator.mediaDevices || typeof navigator.mediaDevices.getUserMedia !== "function") return;
  section.hidden = false;
  button.addEventListener("click", () => (stream ? stop() : start()));
})();
