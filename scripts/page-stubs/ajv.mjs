// Stands in for ajv and ajv-formats in the demo page's bundle (scripts/build-page.mjs). The page gives both SDK clients
// its own jsonSchemaValidator (src/ui/gateway-transport.ts), so the v1 SDK's default ajv provider is never built, and
// the page's main thread carries no second schema engine (~100 KB minified). Building one anyway fails loudly.
const missing = () => {
  throw new Error('ajv is not bundled in the demo page: give the SDK client a jsonSchemaValidator');
};

export default class Ajv {
  constructor() {
    missing();
  }
}

export const addFormats = missing;
