// Values test/setup/devServer.ts hands to the served tests (read through test/support/servedDevServer.ts).
export {};

declare module "vitest" {
  interface ProvidedContext {
    devServerUrl: string;
    devServerAdminToken: string;
    /** The folder of test/support/servedFiles.ts's files. */
    devServerDir: string;
  }
}
