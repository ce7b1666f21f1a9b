// server.json, the MCP Registry's description of this service, says what the Worker serves: the
// two MCP doors at their paths (OAuth first, for hosted assistants; the key header marked secret),
// the package's version, and the registry's own rules (its schema, a reverse-DNS name, a
// description of at most 100 characters).
import { describe, expect, it } from "vitest";
import packageJson from "../../package.json";
import serverJson from "../../server.json";
import { MCP_OAUTH_PATH } from "../../src/accounts/oauthServer";
import { MCP_PATH } from "../../src/faces/mcp";
import { send } from "../support/harness";

describe("server.json", () => {
  it("follows the registry's rules and the package's version", () => {
    expect(serverJson.$schema).toBe("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
    expect(serverJson.name).toMatch(/^[a-z0-9.-]+\/[a-z0-9._-]+$/);
    expect(serverJson.description.length).toBeLessThanOrEqual(100);
    expect(serverJson.version).toBe(packageJson.version);
  });

  it("lists the OAuth door and the key door at the paths the Worker serves, the key as a secret header", async () => {
    const [oauth, key] = serverJson.remotes;
    expect(oauth).toMatchObject({ type: "streamable-http", url: `https://{host}${MCP_OAUTH_PATH}` });
    expect(key).toMatchObject({ type: "streamable-http", url: `https://{host}${MCP_PATH}` });
    expect(key!.headers).toEqual([
      expect.objectContaining({ name: "Authorization", isRequired: true, isSecret: true, value: "Bearer {api_key}" }),
    ]);
    for (const remote of serverJson.remotes) {
      const path = new URL(remote.url.replace("{host}", "api.test")).pathname;
      // Each door answers a call without credentials with 401, as a deployed one would.
      expect((await send(path, { method: "POST", body: "{}" })).status, path).toBe(401);
    }
  });
});
