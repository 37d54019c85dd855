/**
 * Builders for the object and array shapes that Lisk schemas repeat: an object whose members are
 * all required, as a root schema, as a nested member, as the items of an array or as an array
 * member of such items. The `required` list is derived from `properties`, in their order, so a member cannot be
 * declared and left out of it. They serve codec schemas and the JSON schemas of endpoints and
 * config alike (the members are typed by the caller: a codec schema is checked where it is
 * declared as a `Schema`).
 *
 * Key order is part of the result, not a detail: `system_getMetadata` shows schemas as JSON and
 * lisk-sdk's answer is matched byte for byte. The builders write keys in the order lisk-sdk's
 * declarations use most: `$id, type, required, properties` for a root schema;
 * `type, fieldNumber, required, properties` for an object member; `type, required, properties`
 * for array items; `type, fieldNumber, <keywords>, items` for an array of objects. A schema written
 * in another order (some lisk-sdk schemas put `items` before `fieldNumber`, or `required` after
 * `properties`) stays a literal.
 */

/** The members of an object, in field order. */
export type SchemaMembers = Readonly<Record<string, unknown>>;

/** A root schema whose members are all required: `{ $id, type, required, properties }`. */
export function objectSchema<const P extends SchemaMembers>(
  id: string,
  properties: P,
): { $id: string; type: 'object'; required: string[]; properties: P } {
  return { $id: id, type: 'object', required: Object.keys(properties), properties };
}

/**
 * An object whose members are all required, without `$id` or field number: `{ type, required,
 * properties }`. The items of an array of objects, or an object member of a JSON schema.
 */
export function objectOf<const P extends SchemaMembers>(properties: P): { type: 'object'; required: string[]; properties: P } {
  return { type: 'object', required: Object.keys(properties), properties };
}

/** An object member whose members are all required: `{ type, fieldNumber, required, properties }`. */
export function objectField<const P extends SchemaMembers>(
  fieldNumber: number,
  properties: P,
): { type: 'object'; fieldNumber: number; required: string[]; properties: P } {
  return { type: 'object', fieldNumber, required: Object.keys(properties), properties };
}

/** Array keywords, written between `fieldNumber` and `items`. */
export interface ArrayKeywords {
  readonly minItems?: number;
  readonly maxItems?: number;
}

/** An array member of objects whose members are all required: `{ type, fieldNumber, ...keywords, items }`. */
export function objectArrayField<const P extends SchemaMembers, const K extends ArrayKeywords = Record<never, never>>(
  fieldNumber: number,
  properties: P,
  keywords?: K,
): { type: 'array'; fieldNumber: number; items: { type: 'object'; required: string[]; properties: P } } & K {
  return { type: 'array', fieldNumber, ...(keywords as K), items: objectOf(properties) };
}
