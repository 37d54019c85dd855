/**
 * lisk-codec JSON schemas as TypeScript types (LIP 0027 / LIP 0064).
 *
 * Scalars carry `dataType`; containers carry `type` ('object' | 'array'). Every property has a
 * `fieldNumber`. Other JSON-schema keywords (format, minLength, ...) are allowed and ignored by
 * the wire format; `format` only changes the JSON form of bytes.
 */

/** The seven scalar types of lisk-codec. */
export type DataType = 'uint32' | 'sint32' | 'uint64' | 'sint64' | 'bytes' | 'string' | 'boolean';

/** JSON-schema keywords that may decorate any codec property (validation only, never bytes). */
export interface PropertyKeywords {
  fieldNumber: number;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  enum?: readonly unknown[];
  [keyword: string]: unknown;
}

export interface ScalarProperty extends PropertyKeywords {
  dataType: DataType;
  type?: undefined;
}

export interface ObjectProperty extends PropertyKeywords {
  type: 'object';
  properties: Record<string, SchemaProperty>;
  required?: readonly string[];
  dataType?: undefined;
}

/** Item schema of an array of scalars: no fieldNumber (the array's key is used). */
export interface ScalarItems {
  dataType: DataType;
  type?: undefined;
  format?: string;
  [keyword: string]: unknown;
}

/** Item schema of an array of objects. */
export interface ObjectItems {
  type: 'object';
  properties: Record<string, SchemaProperty>;
  required?: readonly string[];
  dataType?: undefined;
  [keyword: string]: unknown;
}

export interface ArrayProperty extends PropertyKeywords {
  type: 'array';
  items: ScalarItems | ObjectItems;
  dataType?: undefined;
}

export type SchemaProperty = ScalarProperty | ObjectProperty | ArrayProperty;

/** A root lisk-codec schema. */
export interface Schema {
  $id?: string;
  type: 'object';
  properties: Record<string, SchemaProperty>;
  required?: readonly string[];
  [keyword: string]: unknown;
}
