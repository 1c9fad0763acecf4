// Limits of the MCP surface, advertised in /v1/capabilities.

/** Messages one HTTP body may batch (the reference's limit); stdio takes one per line. */
export const MAX_RPC_BATCH = 16;
