/**
 * The compiled shape of a lisk-codec schema: every object's fields sorted by fieldNumber (the
 * wire order), with precomputed keys and error-message paths. The encoder,
 * decoder and JSON converters are all built from this one structure.
 */
import type { DataType, ObjectItems, Schema, SchemaProperty } from './types.js';
import { arrayDepth, childPath } from './path-template.js';
import { varintBytes } from './varint.js';

export const WIRE_VARINT = 0;
export const WIRE_LENGTH_DELIMITED = 2;

interface FieldBase {
  readonly name: string;
  readonly fieldNumber: number;
  /** Shortest varint of (fieldNumber << 3 | wireType). */
  readonly key: Buffer;
  /** Template path of the property, e.g. `.header.height` or `.items[].amount`. */
  readonly path: string;
  /** Listed in the parent's `required`. */
  readonly required: boolean;
}

export interface ScalarFieldLayout extends FieldBase {
  readonly kind: 'scalar';
  readonly dataType: DataType;
  readonly format: string | undefined;
}

export interface ObjectFieldLayout extends FieldBase {
  readonly kind: 'object';
  readonly object: ObjectLayout;
}

export type ArrayItemsLayout =
  | { readonly kind: 'scalar'; readonly dataType: DataType; readonly format: string | undefined }
  | { readonly kind: 'object'; readonly object: ObjectLayout };

export interface ArrayFieldLayout extends FieldBase {
  readonly kind: 'array';
  /** Number of arrays enclosing this one: the slot of its element index in the index stack. */
  readonly depth: number;
  /** Numeric and boolean items are packed under one key; the others repeat the key. */
  readonly packed: boolean;
  readonly items: ArrayItemsLayout;
}

export type FieldLayout = ScalarFieldLayout | ObjectFieldLayout | ArrayFieldLayout;

export interface ObjectLayout {
  /** Template path of the object itself ('' for the root). */
  readonly path: string;
  /** Fields in ascending fieldNumber order. */
  readonly fields: readonly FieldLayout[];
}

/** True for the data types written as varints (wire type 0) and therefore packed in arrays. */
export function isVarintType(dataType: DataType): boolean {
  return dataType !== 'bytes' && dataType !== 'string';
}

function buildObject(properties: Record<string, SchemaProperty>, required: readonly string[] | undefined, path: string): ObjectLayout {
  const requiredSet = new Set(required ?? []);
  const fields = Object.entries(properties)
    .map(([name, property]) => buildField(name, property, requiredSet.has(name), childPath(path, name)))
    .sort((a, b) => a.fieldNumber - b.fieldNumber);
  return { path, fields };
}

function buildField(name: string, property: SchemaProperty, required: boolean, path: string): FieldLayout {
  const { fieldNumber } = property;
  if (property.type === 'object') {
    return {
      kind: 'object',
      name,
      fieldNumber,
      key: varintBytes((fieldNumber << 3) | WIRE_LENGTH_DELIMITED),
      path,
      required,
      object: buildObject(property.properties, property.required, path),
    };
  }
  if (property.type === 'array') {
    const itemsPath = `${path}[]`;
    const items = property.items;
    const itemsLayout: ArrayItemsLayout =
      items.type === 'object'
        ? { kind: 'object', object: buildObject((items as ObjectItems).properties, items.required, itemsPath) }
        : { kind: 'scalar', dataType: items.dataType, format: typeof items.format === 'string' ? items.format : undefined };
    return {
      kind: 'array',
      name,
      fieldNumber,
      key: varintBytes((fieldNumber << 3) | WIRE_LENGTH_DELIMITED),
      path,
      required,
      depth: arrayDepth(path),
      packed: itemsLayout.kind === 'scalar' && isVarintType(itemsLayout.dataType),
      items: itemsLayout,
    };
  }
  const wireType = isVarintType(property.dataType) ? WIRE_VARINT : WIRE_LENGTH_DELIMITED;
  return {
    kind: 'scalar',
    name,
    fieldNumber,
    key: varintBytes((fieldNumber << 3) | wireType),
    path,
    required,
    dataType: property.dataType,
    format: typeof property.format === 'string' ? property.format : undefined,
  };
}

/** Builds the layout of a schema that already passed `validateSchema`. */
export function buildLayout(schema: Schema): ObjectLayout {
  return buildObject(schema.properties, schema.required, '');
}
