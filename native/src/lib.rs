//! Basalt's native addon (see DESIGN.md, "Shape"). It is built into a `.node` file that Node loads
//! as an N-API module; every function it will export has a TypeScript fallback with the same
//! contract, and the tests run both and compare. The bindings and the first functions (SHA-256
//! with CPU extensions, sparse merkle tree updates and proofs) arrive with the throughput issue.
