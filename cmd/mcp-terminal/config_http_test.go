package main

import (
	"io"
	"strings"
	"testing"
)

func TestHTTPConfigRejectsContradictions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		argv []string
		want string
	}{
		{"address without port", []string{"--http", "127.0.0.1"}, "host:port"},
		{"cert without key", []string{"--http", "127.0.0.1:1", "--tls-cert", "c.pem"}, "--tls-key"},
		{"issuer without public URL", []string{"--oauth-issuer", "https://auth.example"}, "--public-url"},
		{"relative public URL", []string{"--public-url", "/mcp"}, "absolute http(s) URL"},
		{"origin with a path", []string{"--allowed-origins", "https://app.example/x"}, "scheme://host"},
		{"two scopes", []string{"--oauth-scope", "a b"}, "one scope"},
		{"negative per-principal limit", []string{"--max-sessions-per-principal", "-1"}, "--max-sessions-per-principal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadConfig(tt.argv, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want one saying %s", err, tt.want)
			}
		})
	}
	c, err := loadConfig([]string{"--http", "127.0.0.1:8080", "--insecure-no-auth", "--allow-shared-user=false"},
		env(map[string]string{"MCP_TERMINAL_OAUTH_SCOPE": "shell", "MCP_TERMINAL_ALLOWED_ORIGINS": "https://a.example, http://localhost:3000"}), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if c.HTTP.Addr != "127.0.0.1:8080" || !c.HTTP.InsecureNoAuth || c.HTTP.AllowSharedUser || c.HTTP.Scope != "shell" || len(c.HTTP.AllowedOrigins) != 2 {
		t.Fatalf("%+v", c.HTTP)
	}
}

func TestExposureRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		h          httpConfig
		principals int
		refused    bool
	}{
		{httpConfig{Addr: "127.0.0.1:8080"}, 0, false},
		{httpConfig{Addr: "[::1]:8080"}, 0, false},
		{httpConfig{Addr: "localhost:8080"}, 0, false},
		{httpConfig{Addr: ":8080"}, 0, true},
		{httpConfig{Addr: "0.0.0.0:8080"}, 0, true},
		{httpConfig{Addr: "0.0.0.0:8080", InsecureNoAuth: true}, 0, false},
		{httpConfig{Addr: "0.0.0.0:8080", TokensFile: "t"}, 1, false},
		{httpConfig{Addr: "127.0.0.1:8080", TokensFile: "t"}, 2, true},
		{httpConfig{Addr: "127.0.0.1:8080", TokensFile: "t", AllowSharedUser: true}, 2, false},
	}
	for _, tt := range tests {
		names := make([]string, tt.principals)
		if err := checkExposure(tt.h, names, "not isolated"); (err != nil) != tt.refused {
			t.Errorf("%+v with %d principals: %v", tt.h, tt.principals, err)
		}
	}
}
