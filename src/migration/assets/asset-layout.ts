/**
 * Where the big arrays sit in genesis_assets.json: `{"assets": [{"module", "data": {"<array>": [`,
 * so the line holding an array's key is indented by four tabs, and its entries by five.
 */
export const ASSET_ARRAY_INDENT = '\t\t\t\t';
