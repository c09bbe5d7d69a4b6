// ajv-formats' stand-in in the demo page's bundle: see ajv.mjs beside it.
export { addFormats as default } from './ajv.mjs';
