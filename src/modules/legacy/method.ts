/**
 * The legacy module's method. lisk-core's LegacyMethod is an empty BaseMethod: no other module
 * calls into legacy. The class exists so the module has the same shape as every other one.
 */
export class LegacyMethod {}
