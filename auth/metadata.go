package auth

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Metadata serves RFC 9728 protected-resource metadata. Without a public URL the
// resource is the /mcp endpoint at the address the request came to.
type Metadata struct {
	PublicURL string
	Issuers   []string // authorization_servers
	Scope     string
}

func (m Metadata) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	resource := m.PublicURL
	if resource == "" {
		u := MetadataURL("", r)
		resource = strings.Replace(u, MetadataPath, "", 1)
	}
	doc := struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers,omitempty"`
		ScopesSupported      []string `json:"scopes_supported"`
		BearerMethods        []string `json:"bearer_methods_supported"`
		ResourceName         string   `json:"resource_name"`
	}{resource, m.Issuers, []string{m.Scope}, []string{"header"}, "mcp-terminal"}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(doc)
}
