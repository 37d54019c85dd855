/** Value ranges of the lisk-codec integer types and field numbers (LIP 0027; docs/protocol/codec.md). */

export const MAX_UINT32 = 0xffff_ffff;
export const MIN_SINT32 = -0x8000_0000;
export const MAX_SINT32 = 0x7fff_ffff;

export const MAX_UINT64 = 0xffff_ffff_ffff_ffffn;
export const MIN_SINT64 = -0x8000_0000_0000_0000n;
export const MAX_SINT64 = 0x7fff_ffff_ffff_ffffn;

export const MIN_FIELD_NUMBER = 1;
export const MAX_FIELD_NUMBER = 18_999;
