// Package redact keeps secrets out of what mcp-terminal hands on and records
// what was done:
//
//   - Redactor: replace high-confidence secrets with "[REDACTED:<kind>]"
//     before text reaches the agent or the audit log; Stream does the same
//     across successive reads of one terminal, so a private key split over
//     several results stays hidden.
//   - Audit: an append-only JSON-lines record of what was done; the README's
//     "Audit log" section is its format (fields, events, redaction, file mode).
//
// It imports no project package; tools and cmd import it.
package redact
