// Values test/setup/devServer.ts hands to the e2e test.
export {};

declare module "vitest" {
  interface ProvidedContext {
    devServerUrl: string;
    devServerAdminToken: string;
    devServerStartMs: number;
    devServerLog: string;
  }
}
