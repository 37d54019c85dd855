/**
 * Basalt's lisk-codec (LIP 0027 + LIP 0064; docs/protocol/codec.md): schema types, binary
 * encode/decode, the codec JSON form, schema and value validation, and the hex / lisk32 helpers
 * used at the JSON edge.
 */
export type {
  ArrayProperty,
  DataType,
  ObjectItems,
  ObjectProperty,
  PropertyKeywords,
  ScalarItems,
  ScalarProperty,
  Schema,
  SchemaProperty,
} from './types.js';
export { codec } from './codec.js';
export { objectArrayField, objectField, objectOf, objectSchema } from './schema-builders.js';
export type { ArrayKeywords, SchemaMembers } from './schema-builders.js';
export { validateSchema, schemaProblems } from './validate-schema.js';
export { validate, validationErrors } from './validator/validate.js';
export { bytesToHex, hexToBytes, isHex, describeInvalidHex } from './hex.js';
export { bytesToBase64, isBase64 } from './base64.js';
export {
  ADDRESS_LENGTH,
  LISK32_PREFIX,
  decodeLisk32Address,
  describeInvalidLisk32,
  encodeLisk32Address,
  isValidLisk32Address,
  lisk32,
} from './lisk32.js';
export { MAX_SINT32, MAX_SINT64, MAX_UINT32, MAX_UINT64, MIN_SINT32, MIN_SINT64 } from './limits.js';
