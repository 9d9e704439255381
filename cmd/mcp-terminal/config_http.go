package main

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
)

// httpConfig is the streamable HTTP transport's part of the configuration.
type httpConfig struct {
	Addr            string // serve HTTP here instead of stdio
	TLSCert, TLSKey string
	AllowedOrigins  []string
	InsecureNoAuth  bool
	TokensFile      string
	Issuer          string
	JWKSURL         string
	PublicURL       string
	Scope           string
	MaxPerPrincipal int // 0: the total limit
	AllowSharedUser bool
	Isolation       string // "auto": each session in a Landlock domain of its own when several principals are possible; "off"
}

func httpSettings() []setting {
	str := func(set func(*httpConfig, string)) func(*config, string) error {
		return func(c *config, v string) error { set(&c.HTTP, v); return nil }
	}
	return []setting{
		{"http", "MCP_TERMINAL_HTTP", "", "serve streamable HTTP at /mcp on this address (e.g. 127.0.0.1:8080) instead of stdio",
			str(func(h *httpConfig, v string) { h.Addr = v })},
		{"tls-cert", "MCP_TERMINAL_TLS_CERT", "", "serve HTTPS with this certificate (PEM; with --tls-key)",
			str(func(h *httpConfig, v string) { h.TLSCert = v })},
		{"tls-key", "MCP_TERMINAL_TLS_KEY", "", "the private key of --tls-cert (PEM)",
			str(func(h *httpConfig, v string) { h.TLSKey = v })},
		{"allowed-origins", "MCP_TERMINAL_ALLOWED_ORIGINS", "", "comma-separated origins (https://app.example) allowed to call /mcp from a browser; any other Origin gets 403",
			list(func(c *config, l []string) { c.HTTP.AllowedOrigins = l })},
		{"insecure-no-auth", "MCP_TERMINAL_INSECURE_NO_AUTH", "false", "serve a non-loopback address without authentication (anyone who reaches it gets a shell)",
			boolean(func(c *config, b bool) { c.HTTP.InsecureNoAuth = b })},
		{"auth-tokens-file", "MCP_TERMINAL_AUTH_TOKENS_FILE", "", "static bearer tokens: \"principal token\" per line, mode 0600",
			str(func(h *httpConfig, v string) { h.TokensFile = v })},
		{"oauth-issuer", "MCP_TERMINAL_OAUTH_ISSUER", "", "accept JWT access tokens from this issuer (its discovery document names the JWKS)",
			str(func(h *httpConfig, v string) { h.Issuer = v })},
		{"oauth-jwks-url", "MCP_TERMINAL_OAUTH_JWKS_URL", "", "the issuer's JWKS, when discovery is not wanted",
			str(func(h *httpConfig, v string) { h.JWKSURL = v })},
		{"public-url", "MCP_TERMINAL_PUBLIC_URL", "", "this server's resource identifier, e.g. https://term.example.com/mcp (token audience, RFC 9728 resource)",
			str(func(h *httpConfig, v string) { h.PublicURL = v })},
		{"oauth-scope", "MCP_TERMINAL_OAUTH_SCOPE", "terminal", "the scope a JWT must grant",
			str(func(h *httpConfig, v string) { h.Scope = v })},
		{"max-sessions-per-principal", "MCP_TERMINAL_MAX_SESSIONS_PER_PRINCIPAL", "0", "live sessions of one principal at once (0: the total limit)",
			intIn(0, 1000, func(c *config, n int) { c.HTTP.MaxPerPrincipal = n })},
		{"allow-shared-user", "MCP_TERMINAL_ALLOW_SHARED_USER", "false", "serve several principals although their sessions share this Unix user (see README, threat model)",
			boolean(func(c *config, b bool) { c.HTTP.AllowSharedUser = b })},
		{"isolation", "MCP_TERMINAL_ISOLATION", "auto", "auto: with several principals, run each session secluded (a Landlock domain of its own, kernel ABI 6; no capabilities; a private /proc); off: do not (then several principals need --allow-shared-user)",
			oneOf([]string{"auto", "off"}, func(c *config, v string) { c.HTTP.Isolation = v })},
	}
}

// check reports settings that contradict each other.
func (h httpConfig) check() error {
	var errs []error
	if h.Addr != "" {
		if _, _, err := net.SplitHostPort(h.Addr); err != nil {
			errs = append(errs, fmt.Errorf("invalid --http %q: want host:port, e.g. 127.0.0.1:8080", h.Addr))
		}
	}
	if (h.TLSCert == "") != (h.TLSKey == "") {
		errs = append(errs, errors.New("--tls-cert and --tls-key go together: give both"))
	}
	if (h.Issuer != "" || h.JWKSURL != "") && h.PublicURL == "" {
		errs = append(errs, errors.New("JWT access tokens need --public-url (MCP_TERMINAL_PUBLIC_URL): tokens must name it as their audience"))
	}
	for name, v := range map[string]string{"--public-url": h.PublicURL, "--oauth-issuer": h.Issuer, "--oauth-jwks-url": h.JWKSURL} {
		if v == "" {
			continue
		}
		if u, err := url.Parse(v); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			errs = append(errs, fmt.Errorf("invalid %s %q: want an absolute http(s) URL", name, v))
		}
	}
	for _, o := range h.AllowedOrigins {
		if u, err := url.Parse(o); err != nil || u.Host == "" || strings.TrimRight(u.Path, "/") != "" {
			errs = append(errs, fmt.Errorf("invalid allowed origin %q: want scheme://host[:port]", o))
		}
	}
	if strings.TrimSpace(h.Scope) == "" || strings.ContainsAny(h.Scope, " \"\\") {
		errs = append(errs, fmt.Errorf("invalid --oauth-scope %q: want one scope token", h.Scope))
	}
	return errors.Join(errs...)
}

// authenticated says whether any kind of credential is required.
func (h httpConfig) authenticated() bool {
	return h.TokensFile != "" || h.Issuer != "" || h.JWKSURL != ""
}
