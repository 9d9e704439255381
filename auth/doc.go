// Package auth decides who is calling the HTTP transport: it is mcp-terminal's OAuth
// 2.1 resource server.
//
//   - Tokens: static bearer tokens from a file of "principal token" lines, which
//     must not be group or world readable; tokens are compared in constant time.
//   - JWT: access tokens signed by an OIDC/OAuth issuer, checked with
//     github.com/coreos/go-oidc (signature against the issuer's JWKS, keys cached
//     and refreshed on an unknown kid), then iss, aud (this server's resource
//     identifier, RFC 8707), exp/nbf with a small leeway, and the required scope.
//   - Guard: the net/http middleware in front of /mcp. It answers 401 with
//     WWW-Authenticate: Bearer resource_metadata=..., scope=... (RFC 9728, RFC
//     6750), error="invalid_token" for a bad token, 403 insufficient_scope for a
//     missing scope, and 429 to a source address that keeps failing. A request
//     that passes carries its Principal in its context.
//   - Metadata: the RFC 9728 protected-resource document.
//
// It owns no MCP and no sessions, and imports no project package; cmd/mcp-terminal
// wires it in front of the streamable HTTP server and hands the Principal to tools.
package auth
