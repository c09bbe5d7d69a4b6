/**
 * How far every surface follows one `tools/list` listing (the host adapter, the demo page, the gateway, `schemaval
 * lint --url/--stdio`): at most `maxToolListPages` pages and `maxToolsPerListing` tools, counted over all its pages.
 * A server that paginates forever, or lists without end, costs this much and no more; what lies past the bound is
 * not listed, so a call to it is refused as a call to an unlisted tool.
 */
export const maxToolListPages = 100;

/** See `maxToolListPages`: tools read in one listing, over all its pages. */
export const maxToolsPerListing = 10_000;
