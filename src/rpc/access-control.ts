/**
 * Which sensitive methods the node config lets through (README "JSON-RPC"). Unlike
 * lisk-sdk (where an empty list denies everything), methods are public unless
 * registered as `sensitive`, and a sensitive method passes when `rpc.allowedMethods` holds its
 * namespace, its full `<namespace>_<name>`, or `*`.
 */
import type { RpcMethod } from './registry.js';

export class MethodAccess {
  private readonly allowAll: boolean;
  private readonly allowed: ReadonlySet<string>;

  constructor(allowedMethods: readonly string[]) {
    this.allowed = new Set(allowedMethods);
    this.allowAll = this.allowed.has('*');
  }

  /** Whether `method` may be called under this config. */
  allows(method: RpcMethod): boolean {
    if (method.sensitive !== true || this.allowAll) return true;
    return this.allowed.has(method.namespace) || this.allowed.has(`${method.namespace}_${method.name}`);
  }
}
