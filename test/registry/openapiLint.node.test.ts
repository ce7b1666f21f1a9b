// `npm run lint:openapi` as a test: the served OpenAPI document passes Redocly CLI (recommended)
// and Spectral (spectral:oas) with no error and no warning.
import { expect, it } from "vitest";
import { openApiDocumentText } from "../../scripts/lib/openapiDocument";
import { lintOpenApi } from "../../scripts/lint-openapi";

it("passes Redocly and Spectral with no error or warning", () => {
  const { summary, problems } = lintOpenApi(openApiDocumentText());
  expect(problems, summary.join("\n")).toEqual([]);
}, 120_000);
